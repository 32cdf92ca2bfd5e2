import { approveMcpServer } from '../agent/mcp.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { configHome } from '../host/app-paths.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { startCliMcp } from './mcp-setup.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether mcp list`: every configured MCP server with its status and tools (servers are started to
// list them, then stopped). `aether mcp approve <name>`: the person's approval of a workspace server,
// after the command it runs is printed.

export const mcpCommand: Command = {
  usage: `mcp list|approve <name> [--workspace DIR]`,
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, { workspace: { type: 'string', short: 'w' } });
    const [action, name, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}.`);
    const workspace = await workspaceRoot(values.workspace ?? '.').catch((error: Error) => {
      throw new UsageError(error.message);
    });
    if (action === 'list' && !name) return list(workspace);
    if (action === 'approve' && name) return approve(workspace, name);
    throw new UsageError(action === 'approve' ? 'Name the server to approve.' : 'Say list or approve <name>.');
  },
};

async function list(workspace: string): Promise<number> {
  const servers = await startCliMcp(workspace);
  try {
    const states = servers.states();
    if (states.length === 0) {
      process.stdout.write(`No MCP servers are configured (${configHome()}/mcp.json, .aethercodex/mcp.json).\n`);
    }
    for (const state of states) {
      const tools = state.tools.length > 0 ? state.tools.join(', ') : '(none)';
      process.stdout.write(terminalSafe(`${state.name} (${state.origin}): ${state.status}\n  tools: ${tools}\n`));
    }
  } finally {
    await servers.close();
  }
  return 0;
}

async function approve(workspace: string, name: string): Promise<number> {
  const server = await approveMcpServer(configHome(), workspace, name).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  process.stdout.write(terminalSafe(`Approved "${server.name}" for ${workspace}; it runs:\n  ${server.commandLine}\n`));
  return 0;
}
