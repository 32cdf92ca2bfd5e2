import { startMcpServers } from '../agent/mcp.ts';
import { configHome } from '../host/app-paths.ts';
import type { McpServers } from '../tools/mcp/mcp-servers.ts';
import { terminalSafe } from './terminal-text.ts';

// The CLI's MCP servers: the same two files as the panel (~/.aethercodex/mcp.json, moved by
// $AETHERCODEX_HOME, and the workspace's .aethercodex/mcp.json). A terminal command cannot ask
// mid-run, so a workspace server runs only after `aether mcp approve <name>`.

/** `onToolsChanged`: a server announced a new tool list. */
export async function startCliMcp(workspace: string, onToolsChanged?: () => void): Promise<McpServers> {
  const servers = await startMcpServers({
    home: configHome(),
    workspace,
    ...(onToolsChanged ? { onToolsChanged } : {}),
  });
  for (const problem of servers.problems) process.stderr.write(terminalSafe(`MCP: ${problem}\n`));
  for (const state of servers.states()) {
    if (state.status === 'unapproved' || state.status === 'failed') {
      process.stderr.write(terminalSafe(`MCP server "${state.name}" is ${state.status}: ${state.failure ?? ''}\n`));
    }
  }
  return servers;
}
