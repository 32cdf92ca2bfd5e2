import { configHome } from '../host/app-paths.ts';
import { McpServers } from '../tools/mcp/mcp-servers.ts';
import { terminalSafe } from './terminal-text.ts';

// The CLI's MCP servers: the same two files as the panel (~/.aethercodex/mcp.json, moved by
// $AETHERCODEX_HOME, and the workspace's .aethercodex/mcp.json). A terminal command cannot ask
// mid-run, so a workspace server runs only after `aether mcp approve <name>`.

/** `onToolsChanged`: a server announced a new tool list (`aether run` gives it to the model's next request). */
export async function startCliMcp(workspace: string, onToolsChanged?: () => void): Promise<McpServers> {
  const servers = new McpServers({ home: configHome(), workspace, ...(onToolsChanged ? { onToolsChanged } : {}) });
  await servers.start();
  for (const problem of servers.problems) process.stderr.write(terminalSafe(`MCP: ${problem}\n`));
  for (const state of servers.states()) {
    if (state.status === 'unapproved' || state.status === 'failed') {
      process.stderr.write(terminalSafe(`MCP server "${state.name}" is ${state.status}: ${state.failure ?? ''}\n`));
    }
  }
  return servers;
}
