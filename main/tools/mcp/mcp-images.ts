import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_IMAGE_BYTES, sniffImageType } from '../../../protocol/composer.ts';
import type { ToolImage } from '../tool.ts';

// The images of an MCP tool's result, for models that take images. The session log keeps them
// once in the session's folder by the hash of their bytes (like a person's attached images), so a
// resumed session sends the same bytes. The type is read from the bytes; what is not a PNG, JPEG,
// GIF or WebP, or is too large, or past the bound, stays text only (the result's text names every
// image with its type and size either way).

/** The most images of one result that go to the model. */
export const MAX_RESULT_IMAGES = 4;

export function resultImages(result: CallToolResult): ToolImage[] {
  const images: ToolImage[] = [];
  for (const block of result.content ?? []) {
    if (images.length >= MAX_RESULT_IMAGES) break;
    if (block.type !== 'image') continue;
    // base64 is 4 characters for 3 bytes: a block far past the bound is not decoded at all.
    if (block.data.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4) continue;
    const data = new Uint8Array(Buffer.from(block.data, 'base64'));
    const media_type = sniffImageType(data);
    if (!media_type || data.length > MAX_IMAGE_BYTES) continue;
    const sha256 = createHash('sha256').update(data).digest('hex');
    if (images.some((image) => image.sha256 === sha256)) continue;
    images.push({ sha256, media_type, bytes: data.length, data });
  }
  return images;
}
