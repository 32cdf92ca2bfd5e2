import { errorMessage } from '../../../protocol/errors.ts';
import { isStdio, type McpServerConfig } from './mcp-config.ts';
import {
  hasKeptTokens,
  MemoryOAuthStore,
  oauthKey,
  OAuthSignIn,
  SignInError,
  SignInNeeded,
  type OAuthStore,
} from './mcp-oauth.ts';
import type { McpSecretStore } from './mcp-secrets.ts';

// The remote servers' OAuth sign-ins as the servers see them: who opens the authorization page
// (the host, or the panel's page), whether a connection may send the person there unasked, where
// each sign-in stands for the MCP servers screen, and where the tokens are kept.

/**
 * How a host reaches the person's browser for a remote server's sign-in. A remote server that asks
 * for OAuth is signed in to through the person's browser, opened by `open`; what it gets is kept
 * in the secret store when it keeps secrets, else for this process. With `onlyWhenAsked` (the
 * panel) the browser opens only for a sign-in the person started (`signInNow`); any other
 * connection to such a server fails, saying where to sign in. Without `open` the panel's page
 * opens the authorization page the screen names (the web host).
 */
export interface McpSignInHost {
  open?(url: URL): Promise<void>;
  onlyWhenAsked?: boolean;
}

/** Where a remote server's sign-in stands, for the MCP servers screen. */
export type SignInState =
  { state: 'waiting'; url: string | null } | { state: 'signed_in' } | { state: 'needed' } | { state: 'unknown' };

export class McpSignIns {
  private readonly host: McpSignInHost | undefined;
  private readonly secrets: McpSecretStore;
  private oauthStore: OAuthStore | null = null;
  /** Servers that asked for a sign-in (sent the person to, or would have sent them to, an authorization page). */
  private readonly asked = new Set<string>();
  /** Sign-ins started from the screen, until their connection is ready or failed: the page's address once known. */
  private readonly waiting = new Map<string, { url: string | null; opened(): void }>();

  constructor(host: McpSignInHost | undefined, secrets: McpSecretStore) {
    this.host = host;
    this.secrets = secrets;
  }

  /** Who opens a sign-in's authorization page: the host, or the panel's page (a host without `open`). */
  get opens(): 'host' | 'panel' {
    return this.host && !this.host.open ? 'panel' : 'host';
  }

  /** What a connection to the server signs in with; undefined when this host cannot sign in. */
  forConnection(name: string, asked: boolean): ((serverUrl: string) => OAuthSignIn) | undefined {
    const host = this.host;
    if (!host) return undefined;
    return (serverUrl) => {
      const open = async (page: URL): Promise<void> => {
        this.asked.add(name);
        if (host.onlyWhenAsked && !asked)
          throw new SignInNeeded(
            `The MCP server "${name}" needs a sign-in (OAuth). Press Sign in for it on the MCP servers screen (Settings).`,
          );
        const waiting = this.waiting.get(name);
        if (waiting) {
          waiting.url = page.href;
          waiting.opened();
        }
        try {
          await host.open?.(page);
        } catch (error) {
          throw new SignInError(
            `The sign-in page of the MCP server "${name}" could not be opened: ${errorMessage(error)}`,
          );
        }
      };
      return new OAuthSignIn(serverUrl, { store: this.store, open });
    };
  }

  /** Why the screen's Sign in cannot be done for this server; null when it can. */
  refusal(server: McpServerConfig): string | null {
    if (isStdio(server.transport))
      return `The MCP server "${server.name}" runs as a command; only a remote server (a "url") is signed in to.`;
    return this.host ? null : 'This host cannot open a browser to sign in with.';
  }

  /** A sign-in the person started: resolves once its authorization page is known; `end` when its connection settled. */
  begin(name: string): { pageOpened: Promise<void>; end(): void } {
    let opened = (): void => undefined;
    const pageOpened = new Promise<void>((resolve) => (opened = resolve));
    this.waiting.set(name, { url: null, opened });
    return { pageOpened, end: () => this.waiting.delete(name) };
  }

  /** Forgets the server's tokens and registration: it needs a sign-in again. */
  async forget(name: string, serverUrl: string): Promise<void> {
    await this.store.set(oauthKey(serverUrl), null);
    this.asked.add(name);
  }

  /** Where the server's sign-in stands; null for a server that is not signed in to (a command, or a host without a browser). */
  async state(server: McpServerConfig): Promise<SignInState | null> {
    if (isStdio(server.transport) || !this.host) return null;
    const waiting = this.waiting.get(server.name);
    if (waiting) return { state: 'waiting', url: waiting.url };
    if (await hasKeptTokens(this.store, server.transport.url)) return { state: 'signed_in' };
    return this.asked.has(server.name) ? { state: 'needed' } : { state: 'unknown' };
  }

  private get store(): OAuthStore {
    this.oauthStore ??= this.secrets.storable ? secretOAuthStore(this.secrets) : new MemoryOAuthStore();
    return this.oauthStore;
  }
}

/** The app's secret store as the keeper of sign-ins (the desktop app's is encrypted with the OS keychain). */
function secretOAuthStore(secrets: McpSecretStore): OAuthStore {
  return {
    get: (key) => secrets.get(key),
    set: async (key, value) => {
      const kept = await secrets.set(key, value);
      if (!kept.ok) throw new Error(kept.error);
    },
  };
}
