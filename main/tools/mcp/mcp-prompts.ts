import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { UserCommand } from '../../../protocol/composer.ts';
import { errorMessage } from '../../../protocol/errors.ts';
import type { McpConnection } from './mcp-connection.ts';

// MCP prompts as the composer's slash commands: `/mcp__server__prompt`, its arguments in the order
// the server declares them; sent, the prompt is fetched with them (prompts/get) and its messages become
// the text of the person's message.

/** A prompt's command name: `mcp__server__prompt`, with anything the composer cannot type made `_`. */
export function promptCommandName(server: string, prompt: string): string {
  return `mcp__${server}__${prompt}`.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 64);
}

/** One server's prompts as slash commands. */
export function promptCommands(server: string, prompts: readonly Prompt[]): UserCommand[] {
  return prompts.map((prompt) => {
    const args = (prompt.arguments ?? []).map((arg) => ({
      name: arg.name,
      description: arg.description ?? '',
      required: arg.required === true,
    }));
    const hint = args.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(' ');
    return {
      name: promptCommandName(server, prompt.name),
      description: prompt.description ?? prompt.title ?? `A prompt of the MCP server "${server}"`,
      body: '',
      source: 'mcp',
      ...(hint ? { argument_hint: hint } : {}),
      prompt: { server, name: prompt.name, arguments: args },
    };
  });
}

/**
 * The prompts of every ready server as slash commands, and what went wrong listing them (a server
 * that did not answer within `listMs`).
 */
export async function serversPromptCommands(
  connections: ReadonlyMap<string, McpConnection>,
  listMs: number,
): Promise<{ commands: UserCommand[]; problems: string[] }> {
  const commands: UserCommand[] = [];
  const problems: string[] = [];
  await Promise.all(
    [...connections].map(async ([name, connection]) => {
      try {
        commands.push(...promptCommands(name, await connection.listPrompts(listMs)));
      } catch (error) {
        problems.push(`The MCP server "${name}" did not list its prompts: ${errorMessage(error)}`);
      }
    }),
  );
  commands.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return { commands, problems };
}

/**
 * A prompt's messages as one message's text: their texts (and embedded text resources) in order,
 * separated by a blank line; what has no text (an image, audio, a binary resource) is named instead.
 */
export function promptText(result: GetPromptResult): string {
  const parts = result.messages.map((message) => {
    const content = message.content;
    if (content.type === 'text') return content.text;
    if (content.type === 'resource')
      return 'text' in content.resource
        ? content.resource.text
        : `[${content.resource.uri}: ${content.resource.mimeType ?? 'binary'} content, not included]`;
    if (content.type === 'resource_link') return `[${content.name}: ${content.uri}]`;
    return `[${content.type} from the prompt, not included]`;
  });
  return parts.join('\n\n').trim();
}
