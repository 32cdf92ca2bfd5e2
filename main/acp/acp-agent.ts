import * as acp from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../protocol/api.ts';
import { PERMISSION_MODES } from '../../protocol/values.ts';
import { openAgentSession } from '../agent/open-agent-session.ts';
import { isPermissionMode } from '../agent/permissions.ts';
import { listSessions, peekSession, SessionLockedError } from '../agent/sessions.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import type { ModelAdapter } from '../model/types.ts';
import type { McpServerConfig } from '../tools/mcp/mcp-config.ts';
import { throughEditorFiles } from '../agent/editor-files.ts';
import { clientFiles } from './acp-files.ts';
import { clientTerminals } from './acp-terminals.ts';
import { throughEditorTerminals } from '../agent/editor-terminals.ts';
import type { AnyTool } from '../tools/tool.ts';
import { AcpSession, LateSink } from './acp-session.ts';

// ÆtherCodex as an ACP agent: the SDK's agent app with a handler per method. Every session is
// opened through the front door (openAgentSession), kept in the sessions folder as any other
// (the panel opens it with the same cards), and its events reach the client as session/updates.

export interface AcpAgentOptions {
  /** The model every session runs on (one adapter for the connection). */
  model: ModelAdapter;
  sessionsRoot: string;
  /** Where the person's mcp.json is: the sessions' MCP servers. */
  mcpHome?: string;
  /** The permission mode a new session starts in. */
  mode: PermissionMode;
  /** Opens a remote MCP server's sign-in page in the person's browser. */
  openBrowser?: (url: URL) => Promise<void>;
  version: string;
}

const MODE_NAMES: Record<PermissionMode, { name: string; description: string }> = {
  ask: { name: 'Ask', description: 'Reads run; writes, commands, SSH and web fetches ask first.' },
  review: { name: 'Review writes', description: 'Every file write asks with its change; the rest runs.' },
  auto: { name: 'Auto', description: 'Everything runs without asking, except writes to protected paths.' },
  'read-only': { name: 'Read only', description: 'Reads run; writes, commands and SSH are refused.' },
  bypass: { name: 'Bypass', description: 'Everything runs without asking, protected paths (.git/ …) included.' },
  sandbox: { name: 'Sandbox', description: 'Commands run without asking inside the sandbox; the rest asks first.' },
  plan: { name: 'Plan', description: 'Reads and searches run, commands ask, nothing writes; the turn ends in a plan.' },
};

/** The MCP servers a client passes with a session, as the session's servers besides mcp.json's. */
export function clientMcpServers(servers: readonly acp.McpServer[]): McpServerConfig[] {
  const file = "the ACP client's session";
  return servers.map((server) => {
    const transport =
      'command' in server
        ? {
            command: server.command,
            args: server.args,
            env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
          }
        : { url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) };
    return { name: server.name, origin: 'user', file, transport, disabled: false };
  });
}

export function modeState(current: PermissionMode): acp.SessionModeState {
  return {
    currentModeId: current,
    availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODE_NAMES[id] })),
  };
}

/** The agent app, its sessions kept per connection: a client gone stops their turns and closes them. */
export function acpAgent(options: AcpAgentOptions): { app: acp.AgentApp; closeAll(reason: string): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  // What the client said it can do with files at initialize.
  let capabilities: acp.ClientCapabilities | undefined;

  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw acp.RequestError.sessionNotFound(id);
    return session;
  };

  const workspaceOf = async (cwd: string): Promise<string> => {
    try {
      return await workspaceRoot(cwd);
    } catch (error) {
      throw acp.RequestError.invalidParams(undefined, (error as Error).message);
    }
  };

  const open = async (
    client: acp.AgentContext,
    cwd: string,
    mcpServers: readonly acp.McpServer[],
    resume?: string,
  ): Promise<AcpSession> => {
    const workspace = await workspaceOf(cwd);
    const sink = new LateSink();
    let sessionId = resume ?? '';
    const editor = clientFiles(capabilities, client, () => sessionId);
    const terminals = clientTerminals(capabilities, client, () => sessionId);
    const adapters = [
      ...(editor ? [throughEditorFiles(editor)] : []),
      ...(terminals ? [throughEditorTerminals(terminals)] : []),
    ];
    let opened;
    try {
      opened = await openAgentSession({
        workspace,
        sessionsRoot: options.sessionsRoot,
        ...(resume ? { resume } : {}),
        model: options.model,
        sink,
        permissions: { mode: options.mode },
        ...(adapters.length > 0
          ? { adapt: (tool: AnyTool) => adapters.reduce((adapted, adapt) => adapt(adapted), tool) }
          : {}),
        ...(options.mcpHome
          ? {
              mcp: {
                home: options.mcpHome,
                extra: clientMcpServers(mcpServers),
                ...(options.openBrowser ? { signIn: { open: options.openBrowser } } : {}),
              },
            }
          : {}),
      });
    } catch (error) {
      if (error instanceof SessionLockedError)
        throw acp.RequestError.invalidRequest(
          undefined,
          `Session ${resume} is open in another process (${error.message}). Close it there first.`,
        );
      throw acp.RequestError.internalError(
        undefined,
        `Could not ${resume ? `reopen session ${resume}` : 'start a session'} in ${options.sessionsRoot}: ${(error as Error).message}`,
      );
    }
    const session = new AcpSession(opened, client, workspace, options.mode);
    sessionId = session.id;
    sink.set(session);
    sessions.set(session.id, session);
    return session;
  };

  const app = acp
    .agent({ name: 'aether' })
    .onRequest('initialize', ({ params }) => {
      capabilities = params.clientCapabilities;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: 'aether', title: 'ÆtherCodex', version: options.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, close: {} },
        },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open(client, params.cwd, params.mcpServers);
      return { sessionId: session.id, modes: modeState(session.mode) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const workspace = await workspaceOf(params.cwd);
      let recorded;
      try {
        recorded = await peekSession(options.sessionsRoot, params.sessionId);
      } catch {
        throw acp.RequestError.sessionNotFound(params.sessionId);
      }
      if ((await workspaceOf(recorded.workspace).catch(() => recorded.workspace)) !== workspace)
        throw acp.RequestError.invalidParams(
          undefined,
          `Session ${params.sessionId} was made in ${recorded.workspace}, not ${workspace}: load it with that cwd.`,
        );
      await sessions.get(params.sessionId)?.opened.close();
      sessions.delete(params.sessionId);
      const session = await open(client, params.cwd, params.mcpServers, params.sessionId);
      const { session: agent } = session.opened;
      // Every page of the stored session, oldest first: the client rebuilds the whole conversation.
      const pages = [agent.reopened?.events ?? []];
      let before = agent.reopened?.older ?? 0;
      while (before > 0 && agent.reopenedPages) {
        const page = await agent.reopenedPages.before(before);
        pages.unshift(page.events);
        before = page.before;
      }
      await session.replay(pages.flat());
      return { modes: modeState(session.mode) };
    })
    .onRequest('session/list', async ({ params }) => {
      const cwd = params.cwd ? await workspaceOf(params.cwd) : null;
      const all = await listSessions(options.sessionsRoot);
      return {
        sessions: all
          .filter((summary) => cwd === null || summary.workspace === cwd)
          .map((summary) => ({
            sessionId: summary.id,
            cwd: summary.workspace,
            title: summary.title || null,
            updatedAt: summary.updated_at,
          })),
      };
    })
    .onRequest('session/set_mode', ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (!isPermissionMode(params.modeId))
        throw acp.RequestError.invalidParams(
          undefined,
          `Unknown mode "${params.modeId}": use ${PERMISSION_MODES.join(', ')}.`,
        );
      session.setMode(params.modeId);
      return {};
    })
    .onRequest('session/prompt', ({ params }) => sessionOf(params.sessionId).prompt(params.prompt))
    .onRequest('session/close', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      sessions.delete(params.sessionId);
      await session.opened.close();
      return {};
    })
    .onNotification('session/cancel', async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    closeAll: async (reason) => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((session) => session.opened.close(reason)));
    },
  };
}
