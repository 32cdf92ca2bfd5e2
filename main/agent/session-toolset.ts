import type { McpResourceMatch, UserCommand } from '../../protocol/composer.ts';
import type { McpChange, McpScreen } from '../../protocol/mcp.ts';
import type { CommandEnvPolicy } from '../tools/exec/command-env.ts';
import { SESSION_TOOL_NAMES } from '../tools/todos/todo-write.ts';
import { builtinTools } from '../tools/index.ts';
import { applyMcpChange, mcpScreen } from '../tools/mcp/mcp-screen.ts';
import type { McpServerConfig } from '../tools/mcp/mcp-config.ts';
import type { ElicitationHandler } from '../tools/mcp/mcp-elicitation.ts';
import type { McpSecretStore } from '../tools/mcp/mcp-secrets.ts';
import { McpServers, type McpSignInHost } from '../tools/mcp/mcp-servers.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { ProcessTable } from '../tools/processes/process-table.ts';
import type { AnyTool } from '../tools/tool.ts';

// The tools sessions register: the built-in instrumenta and the tools of the MCP servers (the
// person's ~/.aethercodex/mcp.json and the workspace's .aethercodex/mcp.json), started once and
// shared by every session that takes its tools from here. A server's new tool list reaches the
// registries of the open sessions, so the model's next request has it. openAgentSession makes one
// for a session of its own, or takes a host's (the panel keeps one for as long as it runs).

export interface SessionToolsetOptions {
  /** The workspace root, real path. */
  workspace: string;
  /** The app's home, where the person's mcp.json lives; without it no MCP server starts. */
  mcpHome?: string;
  /** Where the secrets mcp.json names are kept (the desktop app's encrypted store); default: the environment. */
  mcpSecrets?: McpSecretStore;
  /** Servers besides mcp.json's that the host was handed (an editor's, over ACP). */
  mcpExtra?: readonly McpServerConfig[];
  /** How a remote server's OAuth sign-in reaches the person's browser; without it such a server is refused. */
  mcpSignIn?: McpSignInHost;
  /** Who fills in the forms MCP servers ask for during a call; without it none is offered. */
  mcpElicit?: ElicitationHandler;
}

/** What one session takes from the toolset. */
export interface ToolChoice {
  /** exec's environment policy, read at each call (the settings' exec_env_deny / exec_env_allow). */
  commandEnv?: () => Promise<CommandEnvPolicy>;
  /** The largest file write_file and patch_file read whole, read at each call (the settings' max_edit_file_mib). */
  maxEditBytes?: () => number | Promise<number>;
  /** Only the tools it keeps are registered (a narrower set for a nested agent); default: all. */
  filter?: (tool: AnyTool) => boolean;
  /** The session's background processes: exec starts them there, the process tools reach them. */
  processes?: ProcessTable;
}

export class SessionToolset {
  private readonly options: SessionToolsetOptions;
  private builtinNames: string[] | null = null;
  private mcp: McpServers | null = null;
  /** The registries the MCP tools were given to, each with the filter its session chose. */
  private readonly registries = new Map<ToolRegistry, (tool: AnyTool) => boolean>();

  constructor(options: SessionToolsetOptions) {
    this.options = options;
  }

  get workspace(): string {
    return this.options.workspace;
  }

  /**
   * The tools of a new or resumed session; its MCP servers start on the first call. A workspace-defined
   * server stays stopped until approved (`aether mcp approve <name>`, or "Approve and start" on the
   * MCP servers screen, which names its command).
   */
  async tools(choice: ToolChoice = {}): Promise<AnyTool[]> {
    const keep = choice.filter ?? (() => true);
    const builtin = builtinTools({
      // run_code's programs call the MCP tools too, through the same registry and gate.
      more: () => (this.mcp?.tools() ?? []).filter(keep),
      ...(choice.commandEnv ? { commandEnv: choice.commandEnv } : {}),
      ...(choice.maxEditBytes ? { maxEditBytes: choice.maxEditBytes } : {}),
      ...(choice.processes ? { processes: choice.processes } : {}),
    });
    return [...builtin, ...(await this.mcpTools())].filter(keep);
  }

  /** The registry of an open session, which a server's new tool list reaches from now on; returns the detach. */
  follow(registry: ToolRegistry, filter: (tool: AnyTool) => boolean = () => true): () => void {
    this.registries.set(registry, filter);
    return () => void this.registries.delete(registry);
  }

  /** The names of the built-in tools, for the panel before any session exists. */
  builtinToolNames(): string[] {
    // With the tools every session registers of its own (AgentSession), first as it registers them,
    // and those of its background processes (an empty table names them).
    this.builtinNames ??= [
      ...SESSION_TOOL_NAMES,
      ...builtinTools({ processes: new ProcessTable() }).map((tool) => tool.name),
    ];
    return [...this.builtinNames];
  }

  /** What the MCP servers said as they started: problems with the configuration, servers that did not start. */
  mcpProblems(): string[] {
    if (!this.mcp) return [];
    const stopped = this.mcp
      .states()
      .filter((state) => state.status === 'unapproved' || state.status === 'failed')
      .map((state) => `MCP server "${state.name}" is ${state.status}: ${state.failure ?? ''}`);
    return [...this.mcp.problems.map((problem) => `MCP: ${problem}`), ...stopped];
  }

  async close(): Promise<void> {
    await this.mcp?.close();
    this.mcp = null;
  }

  private async mcpTools(): Promise<AnyTool[]> {
    const servers = this.servers();
    if (!servers) return [];
    await servers.start();
    return servers.tools();
  }

  /** The MCP servers screen: the configuration read again (an edited mcp.json shows at once), nothing started. */
  async mcpScreen(): Promise<McpScreen> {
    const servers = this.requireServers();
    await servers.readConfig();
    return mcpScreen(servers, this.requireHome(), this.options.workspace);
  }

  /** Runs one change from the MCP servers screen, then answers with the screen as it is now. */
  async mcpChange(change: McpChange): Promise<McpScreen> {
    const servers = this.requireServers();
    if (servers.servers.length === 0) await servers.readConfig();
    await applyMcpChange(servers, change);
    return mcpScreen(servers, this.requireHome(), this.options.workspace);
  }

  /** The prompts of the running MCP servers as slash commands (`/mcp__server__prompt`); none without an app home. */
  async mcpPromptCommands(): Promise<{ commands: UserCommand[]; problems: string[] }> {
    return this.mcp ? this.mcp.promptCommands() : { commands: [], problems: [] };
  }

  /** The running MCP servers' resources that match `query`, for `@`; none without an app home. */
  async mcpResourceMatches(query: string): Promise<McpResourceMatch[]> {
    return this.mcp ? this.mcp.resourceMatches(query) : [];
  }

  /** An MCP server's prompt with its arguments, as the text of a message. */
  async mcpPromptText(server: string, name: string, args: Record<string, string>): Promise<string> {
    return this.requireServers().promptText(server, name, args);
  }

  /** The bytes of a resource an MCP server offers (a result's resource link, for the card's Save…). */
  async mcpResource(server: string, uri: string): Promise<{ data: string; mime_type?: string }> {
    return this.requireServers().readResource(server, uri);
  }

  private servers(): McpServers | null {
    const home = this.options.mcpHome;
    if (!home) return null;
    this.mcp ??= new McpServers({
      home,
      workspace: this.options.workspace,
      ...(this.options.mcpSecrets ? { secrets: this.options.mcpSecrets } : {}),
      ...(this.options.mcpExtra ? { extra: this.options.mcpExtra } : {}),
      ...(this.options.mcpSignIn ? { signIn: this.options.mcpSignIn } : {}),
      ...(this.options.mcpElicit ? { elicit: this.options.mcpElicit } : {}),
      onToolsChanged: () => {
        const servers = this.mcp;
        if (!servers) return;
        for (const [registry, keep] of this.registries) syncInto(servers, registry, keep);
      },
    });
    return this.mcp;
  }

  private requireServers(): McpServers {
    const servers = this.servers();
    if (!servers) throw new Error('This panel runs without an app home, so it has no MCP servers.');
    return servers;
  }

  private requireHome(): string {
    return this.options.mcpHome ?? '';
  }
}

/** The servers' current tools given to a registry, as far as its session keeps them. */
function syncInto(servers: McpServers, registry: ToolRegistry, keep: (tool: AnyTool) => boolean): void {
  servers.syncInto({
    list: () => registry.list(),
    unregister: (...names) => registry.unregister(...names),
    register: (...tools) => registry.register(...tools.filter(keep)),
  });
}
