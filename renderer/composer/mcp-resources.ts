import type { Result } from '../../protocol/api.ts';
import { MAX_RESOURCE_TEXT, mentionToken, type McpResourceMatch } from '../../protocol/composer.ts';
import type { PanelActions } from '../actions.ts';

// MCP resources picked with `@`: the token the message box shows (`@server:name`), which of them the
// message still mentions when it is sent, and their text read from their servers and attached after
// the message, each in a block naming its server and URI.

/** What a picked resource is typed as, after the `@`. */
export function resourceLabel(resource: Pick<McpResourceMatch, 'server' | 'name'>): string {
  return `${resource.server}:${resource.name}`;
}

/** The picked resources whose token is still in the text, in the order they appear, each once. */
export function resourcesIn(text: string, picked: ReadonlyMap<string, McpResourceMatch>): McpResourceMatch[] {
  const found: { at: number; resource: McpResourceMatch }[] = [];
  for (const [label, resource] of picked) {
    const token = mentionToken(label);
    for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
      const before = at === 0 ? ' ' : text[at - 1]!;
      const after = text[at + token.length] ?? ' ';
      if (/\s/.test(before) && /[\s,.;:!?)]/.test(after)) {
        found.push({ at, resource });
        break;
      }
    }
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.resource);
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|typescript|toml)|[^/]+\/[^;]*\+(json|xml))/;

/**
 * The message with each resource's text after it, read from its server now. A resource that cannot
 * be read, is not text, or is larger than MAX_RESOURCE_TEXT is an error naming it: nothing is sent.
 */
export async function withResources(
  message: string,
  resources: readonly McpResourceMatch[],
  actions: Pick<PanelActions, 'mcpResource'>,
): Promise<Result<string>> {
  const blocks: string[] = [];
  for (const resource of resources) {
    const read = await actions.mcpResource(resource.server, resource.uri);
    const name = `@${resourceLabel(resource)} (${resource.uri})`;
    if (!read.ok) return { ok: false, error: `${name} could not be read: ${read.error}` };
    const type = read.value.mime_type ?? resource.mime_type ?? '';
    const bytes = Uint8Array.from(atob(read.value.data), (char) => char.charCodeAt(0));
    if (type !== '' && !TEXT_TYPES.test(type))
      return { ok: false, error: `${name} is ${type}; only a text resource can be attached to a message.` };
    if (bytes.length > MAX_RESOURCE_TEXT)
      return {
        ok: false,
        error: `${name} is ${Math.ceil(bytes.length / 1024)} KiB; a resource attached to a message may be at most ${MAX_RESOURCE_TEXT / 1024} KiB.`,
      };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, error: `${name} is not UTF-8 text; only a text resource can be attached to a message.` };
    }
    blocks.push(
      `<mcp_resource server="${attribute(resource.server)}" uri="${attribute(resource.uri)}"${type ? ` type="${attribute(type)}"` : ''}>\n${text.replace(/\n$/, '')}\n</mcp_resource>`,
    );
  }
  return { ok: true, value: [message, ...blocks].join('\n\n') };
}

function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
