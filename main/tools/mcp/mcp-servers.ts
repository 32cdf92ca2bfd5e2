import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../registry.ts';
import type { AnyTool } from '../tool.ts';
import { McpApprovals, type AskServerApproval } from './mcp-approvals.ts';
import {
  isStdio,
  loadMcpConfig,
  serverSecretEntries,
  withExtraServers,
  type McpConfig,
  type McpServerConfig,
} from './mcp-config.ts';
import type { McpConnection, McpStatus } from './mcp-connection.ts';
import type { ElicitationHandler } from './mcp-elicitation.ts';
import { McpPreferences, type ToolPreferenceChange } from './mcp-preferences.ts';
import { EnvSecretStore, secretReferences, secretValueProblem, type McpSecretStore } from './mcp-secrets.ts';
import { promptText, serversPromptCommands } from './mcp-prompts.ts';
import { ResourceMatcher } from './mcp-resource-matches.ts';
import { RestartPauses } from './mcp-restarts.ts';
import { McpSignIns, type McpSignInHost, type SignInState } from './mcp-sign-ins.ts';
import type { mcpTool, McpCaller } from './mcp-tool.ts';
import type { McpResourceMatch, UserCommand } from '../../../protocol/composer.ts';

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
  approve?: AskServerApproval;
  initializeTimeoutMs?: number;
  /** A call without progress fails after this long (default 60 s); progress starts it again. */
  callTimeoutMs?: number;
  /** The longest one call may run however often it reports progress (default 30 min). */
  maxCallMs?: number;
  /** Called when any server's tool list changed: the session refreshes what the model is told. */
  onToolsChanged?: () => void;
  /** Where `${secret:NAME}` in mcp.json is looked up and set (default: the environment, read-only). */
  secrets?: McpSecretStore;
  /** Servers the host was handed besides mcp.json's (an editor's, over ACP): the person's own, as theirs. */
  extra?: readonly McpServerConfig[];
  /** How a remote server that asks for OAuth is signed in to (mcp-sign-ins.ts); without it such a server is refused. */
  signIn?: McpSignInHost;
  /** Who fills in the forms servers ask for during a call (elicitation); without it none is offered. */
  elicit?: ElicitationHandler;
}

export type { McpSignInHost, SignInState };

export interface McpServerState {
  name: string;
  origin: McpServerConfig['origin'];
  status: McpStatus | 'disabled' | 'unapproved';
  failure: string | null;
  tools: string[];
  stderr: string;
}

/** How long a server has to list its prompts or resources for the composer. */
const LIST_MS = 5_000;

/**
 * A server's connection and the tools made from its listing, loaded when the first server starts:
 * the MCP SDK and all it loads (its own zod, ajv, the transports) were about a third of the modules
 * a host loaded to open a session, with no server configured.
 */
interface ServerModules {
  McpConnection: typeof McpConnection;
  mcpTool: typeof mcpTool;
}

let serverModules: Promise<ServerModules> | null = null;
/** Those modules once loaded: a ready server's tools are made with them (none is ready before). */
let loadedModules: ServerModules | null = null;

function loadServerModules(): Promise<ServerModules> {
  serverModules ??= Promise.all([import('./mcp-connection.ts'), import('./mcp-tool.ts')]).then(
    ([connection, tool]) => (loadedModules = { McpConnection: connection.McpConnection, mcpTool: tool.mcpTool }),
  );
  return serverModules;
}

export class McpServers {
  private readonly options: McpServersOptions;
  private readonly approvals: McpApprovals;
  /** The person's choices on the MCP servers screen. */
  readonly preferences: McpPreferences;
  readonly secrets: McpSecretStore;
  private config: McpConfig = { servers: [], problems: [] };
  private readonly connections = new Map<string, McpConnection>();
  private readonly unapproved = new Set<string>();
  private readonly restarts = new RestartPauses();
  private started: Promise<void> | null = null;
  private readonly made = new WeakMap<Tool, AnyTool>();
  private readonly signIns: McpSignIns;
  private readonly resources = new ResourceMatcher();

  constructor(options: McpServersOptions) {
    this.options = options;
    this.approvals = new McpApprovals(options.home);
    this.preferences = new McpPreferences(options.home);
    this.secrets = options.secrets ?? new EnvSecretStore();
    this.signIns = new McpSignIns(options.signIn, this.secrets);
  }

  /** Who opens a sign-in's authorization page: the host, or the panel's page (a host without `open`). */
  get signInOpens(): 'host' | 'panel' {
    return this.signIns.opens;
  }

  /** The servers of the configuration last read. */
  get servers(): readonly McpServerConfig[] {
    return this.config.servers;
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
    await this.readConfig();
    await Promise.all(
      this.config.servers.filter((server) => this.enabled(server)).map((server) => this.startOne(server)),
    );
  }

  /** Reads both configuration files and the person's choices, starting nothing. */
  async readConfig(): Promise<McpConfig> {
    const [config, damaged] = await Promise.all([
      loadMcpConfig(this.options.home, this.options.workspace),
      this.preferences.load(),
    ]);
    const merged = withExtraServers(config, this.options.extra ?? []);
    this.config = damaged ? { ...merged, problems: [...merged.problems, damaged] } : merged;
    // The screen says which workspace servers wait for an approval before any of them is started.
    for (const server of merged.servers) {
      if (this.connections.has(server.name)) continue;
      if (await this.approvals.isApproved(this.options.workspace, server)) this.unapproved.delete(server.name);
      else this.unapproved.add(server.name);
    }
    return this.config;
  }

  /** Switched on in mcp.json and on the screen. */
  enabled(server: McpServerConfig): boolean {
    return !server.disabled && this.preferences.serverEnabled(server.name);
  }

  private async startOne(server: McpServerConfig, asked = false): Promise<void> {
    const { McpConnection } = await loadServerModules();
    // Already started from the MCP servers screen before the first session asked.
    if (this.connections.has(server.name)) return;
    const sandboxed = this.preferences.serverSandboxed(server.name);
    if (!(await this.approvals.approvedOrAsked(this.options.workspace, server, sandboxed, this.options.approve))) {
      this.unapproved.add(server.name);
      return;
    }
    this.unapproved.delete(server.name);
    const oauth = this.signIns.forConnection(server.name, asked);
    const connection = new McpConnection(server, {
      ...(this.options.initializeTimeoutMs ? { initializeTimeoutMs: this.options.initializeTimeoutMs } : {}),
      onToolsChanged: () => this.options.onToolsChanged?.(),
      onLost: () => this.restarts.lost(server.name),
      secrets: this.secrets,
      workspace: this.options.workspace,
      sandboxChosen: () => this.preferences.serverSandboxed(server.name),
      ...(this.options.callTimeoutMs ? { callTimeoutMs: this.options.callTimeoutMs } : {}),
      ...(this.options.maxCallMs ? { maxCallMs: this.options.maxCallMs } : {}),
      ...(oauth ? { oauth } : {}),
      ...(this.options.elicit ? { elicit: this.options.elicit } : {}),
    });
    this.connections.set(server.name, connection);
    await connection.start().catch(() => undefined);
  }

  /**
   * The screen's Sign in: connects the remote server again, letting it send the person to its
   * authorization page. Answers once that page's address is known (or the connection ended, ready
   * or failed); the connection goes on until the browser comes back or the wait runs out.
   */
  async signInNow(name: string): Promise<void> {
    const server = await this.configured(name);
    const refusal = this.signIns.refusal(server);
    if (refusal) throw new Error(refusal);
    if (!this.enabled(server)) throw new Error(`The MCP server "${name}" is switched off; switch it on first.`);
    await this.connections.get(name)?.close();
    this.connections.delete(name);
    this.restarts.forget(name);
    const signIn = this.signIns.begin(name);
    const started = this.startOne(server, true).finally(() => {
      signIn.end();
      this.options.onToolsChanged?.();
    });
    await Promise.race([signIn.pageOpened, started]);
  }

  /** The screen's Sign out: forgets the server's tokens and registration, and disconnects it. */
  async signOut(name: string): Promise<void> {
    const server = await this.configured(name);
    if (isStdio(server.transport)) throw new Error(`The MCP server "${name}" has no sign-in to end.`);
    await this.signIns.forget(name, server.transport.url);
    await this.connections.get(name)?.close();
    this.connections.delete(name);
    this.options.onToolsChanged?.();
  }

  /** Where the server's sign-in stands; null for a server that is not signed in to (a command, or a host without a browser). */
  signInState(server: McpServerConfig): Promise<SignInState | null> {
    return this.signIns.state(server);
  }

  /** Records the person's approval of a workspace server (the CLI's `aether mcp approve`). */
  async approve(name: string): Promise<McpServerConfig> {
    const server = await this.configured(name);
    await this.approvals.approve(this.options.workspace, server);
    return server;
  }

  /** The tools of every ready server, as instrumenta of the registry. */
  tools(): AnyTool[] {
    const tools: AnyTool[] = [];
    const make = loadedModules?.mcpTool;
    if (!make) return tools;
    for (const [name, connection] of this.connections) {
      const caller: McpCaller = { call: (tool, args, options) => this.call(name, tool, args, options) };
      for (const tool of connection.tools) {
        if (!this.preferences.toolEnabled(name, tool.name)) continue;
        // One definition per listed tool: its argument validator is compiled once.
        let made = this.made.get(tool);
        if (!made) {
          made = make(name, tool, caller, () => this.preferences.toolPolicy(name, tool.name));
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
      const status: McpServerState['status'] = !this.enabled(server)
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

  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: McpCallerOptions,
  ): Promise<CallToolResult> {
    const connection = this.connections.get(server);
    if (!connection) return Promise.reject(new Error(`The MCP server "${server}" is not running.`));
    // A ready server gets the request at once, in the caller's own synchronous stretch.
    if (connection.status === 'ready') return connection.callTool(tool, args, options);
    return this.restarts.restart(connection).then(() => connection.callTool(tool, args, options));
  }

  /** The screen's Restart (or Start): a fresh connection now, whatever pause a crash left. */
  async restartNow(name: string): Promise<void> {
    const server = await this.configured(name);
    await this.connections.get(name)?.close();
    this.connections.delete(name);
    this.restarts.forget(name);
    if (this.enabled(server)) await this.startOne(server);
    this.options.onToolsChanged?.();
  }

  /** The screen's switch for a whole server: off stops it and hides its tools from the model. */
  async setServerEnabled(name: string, enabled: boolean): Promise<void> {
    const server = await this.configured(name);
    await this.preferences.setServerEnabled(name, enabled);
    if (!enabled) {
      await this.connections.get(name)?.close();
      this.connections.delete(name);
    } else if (this.enabled(server) && !this.connections.has(name)) {
      await this.startOne(server);
    }
    this.options.onToolsChanged?.();
  }

  /** The screen's sandbox switch for a command server: kept, and the server started again under it. */
  async setServerSandboxed(name: string, sandboxed: boolean): Promise<void> {
    const server = await this.configured(name);
    if (!isStdio(server.transport))
      throw new Error(
        `The MCP server "${name}" is reached at ${server.transport.url}: only a command runs in a sandbox.`,
      );
    await this.preferences.setServerSandboxed(name, sandboxed);
    if (this.connections.has(name) && this.enabled(server)) await this.restartNow(name);
  }

  /** A tool switched on or off (what the model is told) or given allow / ask / deny. */
  async setTool(server: string, tool: string, change: ToolPreferenceChange): Promise<void> {
    await this.configured(server);
    await this.preferences.setTool(server, tool, change);
    if (change.enabled !== undefined) this.options.onToolsChanged?.();
  }

  /**
   * The screen's secret field: stores (or with null forgets) a secret the server's configuration
   * names, then connects again if it had been started, so the new value is used at once.
   */
  async setSecret(name: string, secret: string, value: string | null): Promise<void> {
    const server = await this.configured(name);
    if (!secretReferences(serverSecretEntries(server)).includes(secret)) {
      throw new Error(`The MCP server "${name}" names no secret ${secret} in ${server.file}.`);
    }
    const problem = value === null ? null : secretValueProblem(secret, value);
    if (problem) throw new Error(problem);
    const stored = await this.secrets.set(secret, value);
    if (!stored.ok) throw new Error(stored.error);
    if (this.connections.has(name) && this.enabled(server)) await this.restartNow(name);
  }

  /** The screen's "Approve and start" for a workspace server: records the approval, then starts it. */
  async approveAndStart(name: string): Promise<void> {
    const server = await this.approve(name);
    if (this.enabled(server)) await this.startOne(server);
    this.options.onToolsChanged?.();
  }

  /** Reads a resource a server offers (the card's Save… of a resource link), starting the server again if it was lost. */
  async readResource(server: string, uri: string): Promise<{ data: string; mime_type?: string }> {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(`The MCP server "${server}" is not running; start it on the MCP servers screen.`);
    if (connection.status !== 'ready') await this.restarts.restart(connection);
    return connection.readResource(uri, this.options.callTimeoutMs ?? 60_000);
  }

  /**
   * The prompts of every ready server as slash commands, and what went wrong listing them (a
   * server that did not answer). Servers are not started for this: they start with a session.
   */
  promptCommands(): Promise<{ commands: UserCommand[]; problems: string[] }> {
    return serversPromptCommands(this.connections, LIST_MS);
  }

  /** The resources of the ready servers whose server, name, title or URI holds `query`, for `@`. */
  resourceMatches(query: string, limit = 20): Promise<McpResourceMatch[]> {
    return this.resources.matches(this.connections, query, limit, LIST_MS);
  }

  /** A prompt of a server with its arguments, as the text of a message. */
  async promptText(server: string, prompt: string, args: Record<string, string>): Promise<string> {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(`The MCP server "${server}" is not running; start it on the MCP servers screen.`);
    if (connection.status !== 'ready') await this.restarts.restart(connection);
    const text = promptText(await connection.getPrompt(prompt, args, this.options.callTimeoutMs ?? 60_000));
    if (text === '') throw new Error(`The prompt ${prompt} of the MCP server "${server}" came back empty.`);
    return text;
  }

  /** The SDK client of a connected server (bench/mcp-call.ts compares the pipeline with its bare callTool). */
  sdkClient(name: string): Client | null {
    return this.connections.get(name)?.sdkClient ?? null;
  }

  /** The tools a ready server lists, for the screen (hidden ones included). */
  listedTools(name: string): readonly Tool[] {
    return this.connections.get(name)?.tools ?? [];
  }

  private async configured(name: string): Promise<McpServerConfig> {
    if (this.config.servers.length === 0) await this.readConfig();
    const server = this.config.servers.find((entry) => entry.name === name);
    if (!server)
      throw new Error(
        `No MCP server is named "${name}". The MCP servers screen and aether mcp list show the configured ones.`,
      );
    return server;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }
}

type McpCallerOptions = Parameters<McpCaller['call']>[2];
