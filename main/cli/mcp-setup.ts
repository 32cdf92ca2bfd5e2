import { configHome } from '../host/app-paths.ts';
import { McpServers } from '../tools/mcp/mcp-servers.ts';
import { terminalSafe } from './terminal-text.ts';

// The CLI's MCP servers: the same two files as the panel (~/.aethercodex/mcp.json, moved by
// $AETHERCODEX_HOME, and the workspace's .aethercodex/mcp.json). A terminal command cannot ask
// mid-run, so a workspace server runs only after `aether mcp approve <name>`.

export async function startCliMcp(workspace: string): Promise<McpServers> {
  const servers = new McpServers({ home: configHome(), workspace });
  await servers.start();
  for (const problem of servers.problems) process.stderr.write(terminalSafe(`MCP: ${problem}\n`));
  for (const state of servers.states()) {
    if (state.status === 'unapproved' || state.status === 'failed') {
      process.stderr.write(terminalSafe(`MCP server "${state.name}" is ${state.status}: ${state.failure ?? ''}\n`));
    }
  }
  return servers;
}
