import { createHash } from 'node:crypto';

// The name an MCP server's tool goes by among ours, apart from the tool itself (mcp-tool.ts), so the
// MCP servers screen can name a server's tools without loading the MCP SDK.

/** Providers accept tool names of letters, digits, `_` and `-`, at most 64 long. */
const MAX_NAME = 64;

/** `mcp__<server>__<tool>`, with anything providers refuse replaced by `_`; a long name keeps a hash. */
export function mcpToolName(server: string, tool: string): string {
  const clean = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_');
  const name = `mcp__${clean(server)}__${clean(tool)}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}
