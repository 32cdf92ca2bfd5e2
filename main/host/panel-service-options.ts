import type { ProviderId, Result, SystemNotice } from '../../protocol/api.ts';
import type { ModelAdapter } from '../model/index.ts';
import type { McpSecretStore } from '../tools/mcp/mcp-secrets.ts';
import type { KeyStore } from './key-store.ts';
import type { OpenInEditor } from './file-viewer.ts';
import type { SettingsStore, StoredSettings } from './settings-store.ts';

// What a host gives the panel service: its workspace and folders, its stores and model catalog,
// and the few things only the host can do (open a link, show a notification).

export interface ModelCatalog {
  /** The ids the model picker offers. */
  ids(): string[];
  /** Throws an error a person can act on (a missing key, an unknown id). */
  create(id: string, keys: KeyStore, options?: { requestTimeoutMs?: number }): Promise<ModelAdapter>;
  /** The provider whose key `create` would miss for this id, looking where `create` looks; null when none. */
  missingKey(id: string, keys: KeyStore): Promise<ProviderId | null>;
}

export interface PanelServiceOptions {
  /** The workspace root, real path. */
  workspace: string;
  sessionsRoot: string;
  settings: SettingsStore;
  keys: KeyStore;
  models: ModelCatalog;
  version: string;
  /** How this host opens an https: link (Electron: after a confirmation dialog). */
  openLink(url: string): Promise<Result<void>>;
  /** Told after settings change, with the new settings (Electron turns updates on or off). */
  onSettingsChanged?(settings: StoredSettings): void;
  /** Shows a system notification (Electron); without it the page shows its own. A click publishes `notify:clicked`. */
  notify?(notice: SystemNotice, clicked: () => void): Result<void>;
  /** Opens a file in the person's editor (the desktop app); without it file links open in the panel. */
  openInEditor?: OpenInEditor;
  /**
   * The folder of the person's mcp.json (~/.aethercodex, moved by $AETHERCODEX_HOME): its MCP servers
   * and the workspace's start with the first session and stop when the service closes. Without it,
   * sessions have the built-in tools only.
   */
  mcpHome?: string;
  /** Where the secrets mcp.json names (`${secret:NAME}`) are kept; default: the environment, read-only. */
  mcpSecrets?: McpSecretStore;
  /**
   * Opens a remote MCP server's authorization page in the person's browser, when they press Sign in
   * on the MCP servers screen (the desktop app); without it the panel's page opens it (the web host).
   */
  openSignIn?(url: URL): Promise<void>;
  /** The app's home (~/.aethercodex, moved by $AETHERCODEX_HOME): its `commands/` holds the person's slash commands. */
  home?: string;
}
