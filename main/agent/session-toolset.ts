import { builtinTools } from '../tools/index.ts';
import type { McpScreen } from '../../protocol/mcp.ts';
import { mcpScreen } from '../tools/mcp/mcp-screen.ts';
import type { McpSecretStore } from '../tools/mcp/mcp-secrets.ts';
import { McpServers } from '../tools/mcp/mcp-servers.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { AnyTool } from '../tools/tool.ts';
import type { SettingsStore } from './settings-store.ts';

// The tools a panel session registers: the built-in instrumenta, with the command environment the
// settings allow (read at each call), and the tools of the MCP servers, started once for the service.

export interface SessionToolsetOptions {
  workspace: string;
  settings: SettingsStore;
  /** The app's home, where the person's mcp.json lives; without it no MCP server starts. */
  mcpHome?: string;
  /** Where the secrets mcp.json names are kept (the desktop app's encrypted store); default: the environment. */
  mcpSecrets?: McpSecretStore;
  /** The registry of the open session, which a server's new tool list reaches. */
  openRegistry(): ToolRegistry | null;
}

export class SessionToolset {
  private readonly options: SessionToolsetOptions;
  private builtinNames: string[] | null = null;
  private mcp: McpServers | null = null;

  constructor(options: SessionToolsetOptions) {
    this.options = options;
  }

  /** The tools of a new or resumed session. */
  async tools(): Promise<AnyTool[]> {
    const builtin = builtinTools({
      // run_code's programs call the MCP tools too, through the same registry and gate.
      more: () => this.mcp?.tools() ?? [],
      commandEnv: async () => {
        const settings = await this.options.settings.get();
        return { deny: settings.exec_env_deny ?? [], allow: settings.exec_env_allow ?? [] };
      },
    });
    return [...builtin, ...(await this.mcpTools())];
  }

  /** The names of the built-in tools, for the panel before any session exists. */
  builtinToolNames(): string[] {
    this.builtinNames ??= builtinTools().map((tool) => tool.name);
    return [...this.builtinNames];
  }

  async close(): Promise<void> {
    await this.mcp?.close();
    this.mcp = null;
  }

  /**
   * A workspace-defined server stays stopped until approved (`aether mcp approve <name>`, or
   * "Approve and start" on the MCP servers screen, which names its command).
   */
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
  async mcpChange(change: (servers: McpServers) => Promise<void>): Promise<McpScreen> {
    const servers = this.requireServers();
    if (servers.servers.length === 0) await servers.readConfig();
    await change(servers);
    return mcpScreen(servers, this.requireHome(), this.options.workspace);
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
      onToolsChanged: () => {
        const registry = this.options.openRegistry();
        if (registry) this.mcp?.syncInto(registry);
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
