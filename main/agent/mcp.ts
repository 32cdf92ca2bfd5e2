import { serverCommandLine } from '../tools/mcp/mcp-config.ts';
import type { McpSecretStore } from '../tools/mcp/mcp-secrets.ts';
import { McpServers } from '../tools/mcp/mcp-servers.ts';

// MCP servers outside a session, for the hosts: `aether mcp list` and `approve`, `aether tool`'s
// direct MCP calls, the bytes of a result's resources kept in a session's folder (the card's
// Save…), and the environment's secret store the desktop app's encrypted one falls back to. A
// session's own servers come with its tools (session-toolset.ts), the MCP screen's requests too.

export { readKeptBlob } from '../tools/mcp/mcp-blobs.ts';
export { EnvSecretStore } from '../tools/mcp/mcp-secrets.ts';

export interface McpStart {
  /** The folder of the person's mcp.json. */
  home: string;
  /** The workspace root, real path: its .aethercodex/mcp.json. */
  workspace: string;
  secrets?: McpSecretStore;
  /** A server announced a new tool list. */
  onToolsChanged?: () => void;
}

/** The configured servers, started (a workspace server only once approved); the caller closes them. */
export async function startMcpServers(start: McpStart): Promise<McpServers> {
  const servers = new McpServers({
    home: start.home,
    workspace: start.workspace,
    ...(start.secrets ? { secrets: start.secrets } : {}),
    ...(start.onToolsChanged ? { onToolsChanged: start.onToolsChanged } : {}),
  });
  await servers.start();
  return servers;
}

/** The person's approval of a workspace server: its name and the command line it runs. Throws for an unknown name. */
export async function approveMcpServer(
  home: string,
  workspace: string,
  name: string,
): Promise<{ name: string; commandLine: string }> {
  const server = await new McpServers({ home, workspace }).approve(name);
  return { name: server.name, commandLine: serverCommandLine(server) };
}
