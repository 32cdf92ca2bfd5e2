import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../../protocol/errors.ts';
import type { ToolRegistry } from '../registry.ts';
import type { AnyTool } from '../tool.ts';
import { McpApprovals, serverApprovalRequest, type ServerApprovalRequest } from './mcp-approvals.ts';
import { loadMcpConfig, type McpConfig, type McpServerConfig } from './mcp-config.ts';
import { McpConnection, type McpStatus } from './mcp-connection.ts';
import { mcpTool, type McpCaller } from './mcp-tool.ts';

// Every MCP server a session can use: read from the two configuration files, started when the
// session first needs its tools, restarted with a growing pause after a crash, stopped on close.

export interface McpServersOptions {
  /** The app's home (mcp.json, the approvals of workspace servers). */
  home: string;
  /** The workspace root, real path. */
  workspace: string;
  /**
   * Asks the person whether a workspace-defined server may start, naming its command. Without it,
   * an unapproved workspace server stays stopped and says how to approve it.
   */
  approve?: (server: McpServerConfig, request: ServerApprovalRequest) => Promise<boolean>;
  initializeTimeoutMs?: number;
  /** A call without progress fails after this long (default 60 s); progress starts it again. */
  callTimeoutMs?: number;
  /** The longest one call may run however often it reports progress (default 30 min). */
  maxCallMs?: number;
  /** Called when any server's tool list changed: the session refreshes what the model is told. */
  onToolsChanged?: () => void;
}

export interface McpServerState {
  name: string;
  origin: McpServerConfig['origin'];
  status: McpStatus | 'disabled' | 'unapproved';
  failure: string | null;
  tools: string[];
  stderr: string;
}

const FIRST_RESTART_MS = 1_000;
const LONGEST_RESTART_MS = 30_000;

export class McpServers {
  private readonly options: McpServersOptions;
  private readonly approvals: McpApprovals;
  private config: McpConfig = { servers: [], problems: [] };
  private readonly connections = new Map<string, McpConnection>();
  private readonly unapproved = new Set<string>();
  private readonly restarts = new Map<string, { pauseMs: number; notBefore: number }>();
  private started: Promise<void> | null = null;
  private readonly made = new WeakMap<Tool, AnyTool>();

  constructor(options: McpServersOptions) {
    this.options = options;
    this.approvals = new McpApprovals(options.home);
  }

  /** Problems found in the configuration files (shown, never fatal). */
  get problems(): string[] {
    return this.config.problems;
  }

  /** Reads the configuration and starts every enabled, approved server; a failed one is reported, not thrown. */
  start(): Promise<void> {
    this.started ??= this.startAll();
    return this.started;
  }

  private async startAll(): Promise<void> {
    this.config = await loadMcpConfig(this.options.home, this.options.workspace);
    await Promise.all(this.config.servers.filter((server) => !server.disabled).map((server) => this.startOne(server)));
  }

  private async startOne(server: McpServerConfig): Promise<void> {
    if (!(await this.approved(server))) {
      this.unapproved.add(server.name);
      return;
    }
    this.unapproved.delete(server.name);
    const connection = new McpConnection(server, {
      ...(this.options.initializeTimeoutMs ? { initializeTimeoutMs: this.options.initializeTimeoutMs } : {}),
      onToolsChanged: () => this.options.onToolsChanged?.(),
      onLost: () => this.scheduleRestart(server.name),
    });
    this.connections.set(server.name, connection);
    await connection.start().catch(() => undefined);
  }

  private async approved(server: McpServerConfig): Promise<boolean> {
    const { workspace } = this.options;
    if (await this.approvals.isApproved(workspace, server)) return true;
    if (!this.options.approve) return false;
    const yes = await this.options.approve(server, serverApprovalRequest(server)).catch(() => false);
    if (yes) await this.approvals.approve(workspace, server);
    return yes;
  }

  /** Records the person's approval of a workspace server (the CLI's `aether mcp approve`). */
  async approve(name: string): Promise<McpServerConfig> {
    if (this.config.servers.length === 0) this.config = await loadMcpConfig(this.options.home, this.options.workspace);
    const server = this.config.servers.find((entry) => entry.name === name);
    if (!server) throw new Error(`No MCP server is named "${name}". Run aether mcp list to see them.`);
    await this.approvals.approve(this.options.workspace, server);
    return server;
  }

  /** The tools of every ready server, as instrumenta of the registry. */
  tools(): AnyTool[] {
    const tools: AnyTool[] = [];
    for (const [name, connection] of this.connections) {
      const caller: McpCaller = { call: (tool, args, options) => this.call(name, tool, args, options) };
      for (const tool of connection.tools) {
        // One definition per listed tool: its argument validator is compiled once.
        let made = this.made.get(tool);
        if (!made) {
          made = mcpTool(name, tool, caller);
          this.made.set(tool, made);
        }
        tools.push(made);
      }
    }
    // Two names that sanitise alike (`a.b`, `a_b`): the first keeps the name, as the registry allows one.
    return tools.filter((tool, index) => tools.findIndex((other) => other.name === tool.name) === index);
  }

  /**
   * Puts the servers' current tools in a registry in place of the MCP tools it holds: after a
   * server announced `tools/list_changed`, the model is told the new list from its next request on.
   */
  syncInto(registry: Pick<ToolRegistry, 'list' | 'register' | 'unregister'>): void {
    registry.unregister(
      ...registry
        .list()
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('mcp__')),
    );
    registry.register(...this.tools());
  }

  states(): McpServerState[] {
    return this.config.servers.map((server) => {
      const connection = this.connections.get(server.name);
      const status: McpServerState['status'] = server.disabled
        ? 'disabled'
        : this.unapproved.has(server.name)
          ? 'unapproved'
          : (connection?.status ?? 'stopped');
      return {
        name: server.name,
        origin: server.origin,
        status,
        failure:
          status === 'unapproved'
            ? `Defined by ${server.file}; it starts only once you approve its command (aether mcp approve ${server.name}, or the panel's question).`
            : (connection?.failure ?? null),
        tools: connection?.tools.map((tool) => tool.name) ?? [],
        stderr: connection?.stderrTail ?? '',
      };
    });
  }

  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      onprogress: (progress: { progress: number; total?: number; message?: string }) => void;
    },
  ): Promise<CallToolResult> {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(`The MCP server "${server}" is not running.`);
    if (connection.status !== 'ready') await this.restart(connection);
    return connection.callTool(tool, args, {
      ...options,
      timeoutMs: this.options.callTimeoutMs ?? 60_000,
      maxTotalTimeoutMs: this.options.maxCallMs ?? 30 * 60_000,
    });
  }

  private scheduleRestart(name: string): void {
    const previous = this.restarts.get(name);
    const pauseMs = previous ? Math.min(previous.pauseMs * 2, LONGEST_RESTART_MS) : FIRST_RESTART_MS;
    this.restarts.set(name, { pauseMs, notBefore: Date.now() + pauseMs });
  }

  /** Starts a lost server again once its pause is over; sooner, the call fails saying when to retry. */
  private async restart(connection: McpConnection): Promise<void> {
    const { name } = connection.config;
    const pause = this.restarts.get(name);
    const wait = pause ? pause.notBefore - Date.now() : 0;
    if (wait > 0) {
      throw new Error(
        `${connection.failure ?? `The MCP server "${name}" is not running.`}\nIt is restarted in ${Math.ceil(wait / 1000)} s; call again then.`,
      );
    }
    try {
      await connection.start();
    } catch (error) {
      this.scheduleRestart(name);
      throw new Error(errorMessage(error), { cause: error });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }
}
