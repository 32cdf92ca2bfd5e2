import type { McpChange, McpScreen, McpServerView } from '../../../protocol/mcp.ts';
import { serverCommandLine, serverSecretEntries, userMcpFile, workspaceMcpFile } from './mcp-config.ts';
import { sandboxView } from './mcp-sandbox-view.ts';
import { secretReferences } from './mcp-secrets.ts';
import type { McpServers } from './mcp-servers.ts';
import { mcpToolName } from './mcp-tool-name.ts';

// The MCP servers screen's view of every configured server: status, why it failed or waits, its
// tools with the person's choices, and its stderr tail.

export async function mcpScreen(servers: McpServers, home: string, workspace: string): Promise<McpScreen> {
  const secrets = new Map(
    await Promise.all(
      servers.servers.map(async (server) => {
        const names = secretReferences(serverSecretEntries(server));
        const views = await Promise.all(
          names.map(async (name) => {
            const from = await servers.secrets.from(name);
            return { name, set: from !== null, from };
          }),
        );
        return [server.name, views] as const;
      }),
    ),
  );
  const states = new Map(servers.states().map((state) => [state.name, state]));
  const signIns = new Map(
    await Promise.all(servers.servers.map(async (server) => [server.name, await servers.signInState(server)] as const)),
  );
  const views = servers.servers.map((server): McpServerView => {
    const state = states.get(server.name);
    return {
      name: server.name,
      origin: server.origin,
      file: server.file,
      command: serverCommandLine(server),
      status: state?.status ?? 'stopped',
      failure: state?.failure ?? null,
      tools: servers.listedTools(server.name).map((tool) => ({
        name: tool.name,
        full_name: mcpToolName(server.name, tool.name),
        description: tool.description ?? tool.title ?? '',
        read_only: tool.annotations?.readOnlyHint === true,
        destructive: tool.annotations?.destructiveHint === true,
        enabled: servers.preferences.toolEnabled(server.name, tool.name),
        policy: servers.preferences.toolPolicy(server.name, tool.name),
      })),
      stderr: state?.stderr ?? '',
      secrets: secrets.get(server.name) ?? [],
      sign_in: signIns.get(server.name) ?? null,
      sandbox: sandboxView(server, servers.preferences.serverSandboxed(server.name)),
    };
  });
  return {
    servers: views,
    problems: servers.problems,
    files: { user: userMcpFile(home), workspace: workspaceMcpFile(workspace) },
    secrets_storable: servers.secrets.storable,
    sign_in_opens: servers.signInOpens,
  };
}

/** Carries out one change from the screen. */
export function applyMcpChange(servers: McpServers, change: McpChange): Promise<void> {
  switch (change.action) {
    case 'restart':
      return servers.restartNow(change.name);
    case 'approve':
      return servers.approveAndStart(change.name);
    case 'secret':
      return servers.setSecret(change.name, change.secret, change.value);
    case 'sign-in':
      return servers.signInNow(change.name);
    case 'sign-out':
      return servers.signOut(change.name);
    case 'enable':
      return servers.setServerEnabled(change.name, change.enabled);
    case 'sandbox':
      return servers.setServerSandboxed(change.name, change.sandboxed);
    case 'tool':
      return servers.setTool(change.server, change.tool, {
        ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
        ...(change.policy !== undefined ? { policy: change.policy } : {}),
      });
  }
}
