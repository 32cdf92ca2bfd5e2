import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpResourceEcho } from '../../../protocol/echo.ts';
import { keptBlob, MAX_RESULT_RESOURCES } from './mcp-blobs.ts';

// What an MCP result's card shows of its binary resources and resource links: the type, size and
// name a person needs, the kept bytes' hash for Save…, and an image blob small enough for the card
// itself, within the limits its images have. Text resources stay in the card's text.

/** The largest image or audio clip (base64 characters) the card's echo carries; the echo goes through IPC and the log. */
export const ECHO_MEDIA_CHARS = 256 * 1024;
/** How many images (image blobs among them), and how many audio clips, it carries at most. */
export const ECHO_MEDIA = 4;
export const IMAGE_TYPE = /^image\/[\w.+-]+$/;
export const AUDIO_TYPE = /^audio\/[\w.+-]+$/;

export function echoResources(result: CallToolResult): { resources: McpResourceEcho[]; omitted: number } {
  const resources: McpResourceEcho[] = [];
  let omitted = 0;
  let images = 0;
  for (const block of result.content ?? []) {
    if (block.type === 'resource_link') {
      if (resources.length >= MAX_RESULT_RESOURCES) omitted += 1;
      else
        resources.push({
          type: 'link',
          uri: block.uri,
          name: block.title ?? block.name,
          ...(block.mimeType ? { mime_type: block.mimeType } : {}),
          ...(typeof block.size === 'number' && Number.isInteger(block.size) && block.size >= 0
            ? { bytes: block.size }
            : {}),
          ...(block.description ? { description: block.description } : {}),
        });
      continue;
    }
    if (block.type !== 'resource') continue;
    const { resource } = block;
    const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : null;
    if (blob === null) continue; // text resources are in the card's text
    if (resources.length >= MAX_RESULT_RESOURCES) {
      omitted += 1;
      continue;
    }
    const kept = keptBlob(result, blob);
    const mime = resource.mimeType;
    const shown = mime && IMAGE_TYPE.test(mime) && blob.length <= ECHO_MEDIA_CHARS && images < ECHO_MEDIA;
    if (shown) images += 1;
    resources.push({
      type: 'blob',
      uri: resource.uri,
      name: nameOf(resource.uri),
      ...(mime ? { mime_type: mime } : {}),
      bytes: kept?.bytes ?? base64Bytes(blob),
      ...(kept ? { sha256: kept.sha256 } : {}),
      ...(shown ? { data: blob } : {}),
    });
  }
  return { resources, omitted };
}

/** A resource's file name: its URI's last path segment, else the whole URI. */
function nameOf(uri: string): string {
  const last = uri
    .split(/[?#]/)[0]
    ?.split('/')
    .findLast((part) => part.length > 0);
  try {
    return last ? decodeURIComponent(last) : uri;
  } catch {
    return last ?? uri;
  }
}

/** The bytes a base64 text holds. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
