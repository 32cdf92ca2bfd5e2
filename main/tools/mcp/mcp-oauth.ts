import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

// OAuth 2.1 for a remote MCP server, as the MCP authorization spec has it. The SDK's client does
// the protocol — discovery of the protected resource's and the authorization server's metadata,
// dynamic client registration (or a client ID metadata document), PKCE, the code exchange, refresh,
// scope step-up — through this provider, which keeps what it learns in a store (the app's key
// store: never mcp.json, never a log), and brings the person's browser back to a loopback redirect
// (127.0.0.1 on a free port, RFC 8252) that checks the `state` before it hands the code on.

/** Where a server's registration, tokens and PKCE verifier are kept, as one JSON text under a key. */
export interface OAuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string | null): Promise<void>;
}

/** Kept for the life of the process only (a probe). */
export class MemoryOAuthStore implements OAuthStore {
  private readonly values = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async set(key: string, value: string | null): Promise<void> {
    if (value === null) this.values.delete(key);
    else this.values.set(key, value);
  }
}

interface Kept {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
}

export interface OAuthSignInOptions {
  store: OAuthStore;
  /** Opens the authorization page in the person's browser; resolves once it is open (or throws saying why not). */
  open(url: URL): Promise<void>;
  /** How long the person has to finish in the browser (default 5 min). */
  waitMs?: number;
  /** A client ID metadata document (an https URL) for servers that take one instead of registration. */
  clientMetadataUrl?: string;
  /** A client registered with the authorization server beforehand (no dynamic registration then). */
  client?: { client_id: string; client_secret?: string };
  clientName?: string;
}

/** The store's key for a server: its URL's hash (the URL itself may carry what is not ours to log). */
export function oauthKey(serverUrl: string): string {
  return `MCP_OAUTH_${createHash('sha256').update(serverUrl).digest('hex').slice(0, 16).toUpperCase()}`;
}

/** Why a sign-in did not finish: said in words a person can act on. */
export class SignInError extends Error {
  override name = 'SignInError';
}

/** A server wants a sign-in, and this connection may not open the browser for one (the panel's, until the person asks). */
export class SignInNeeded extends SignInError {
  override name = 'SignInNeeded';
}

/** Whether tokens are kept for the server at `serverUrl` in `store`. */
export async function hasKeptTokens(store: OAuthStore, serverUrl: string): Promise<boolean> {
  const text = await store.get(oauthKey(serverUrl));
  try {
    return text ? (JSON.parse(text) as Kept).tokens !== undefined : false;
  } catch {
    return false;
  }
}

/**
 * One server's sign-in: the SDK's provider, and the code the loopback redirect receives. The
 * caller starts it (`ready`), hands `provider` to the transport, and on an UnauthorizedError takes
 * `code()` to `transport.finishAuth`. `close` stops the loopback listener.
 */
export class OAuthSignIn {
  readonly provider: OAuthClientProvider;
  private readonly options: OAuthSignInOptions;
  private readonly key: string;
  private server: Server | null = null;
  private port = 0;
  private expectedState: string | null = null;
  private pending: { resolve(code: string): void; reject(error: Error): void } | null = null;
  private received: Promise<string> | null = null;

  constructor(serverUrl: string, options: OAuthSignInOptions) {
    this.options = options;
    this.key = oauthKey(serverUrl);
    const read = async (): Promise<Kept> => {
      const text = await options.store.get(this.key);
      try {
        return text ? (JSON.parse(text) as Kept) : {};
      } catch {
        return {};
      }
    };
    const keep = async (change: Partial<Kept>): Promise<void> => {
      const kept = { ...(await read()), ...change };
      await options.store.set(this.key, JSON.stringify(kept));
    };
    const redirectUrl = (): string => this.redirectUrl;
    this.provider = {
      get redirectUrl() {
        return redirectUrl();
      },
      get clientMetadata(): OAuthClientMetadata {
        return {
          client_name: options.clientName ?? 'ÆtherCodex',
          redirect_uris: [redirectUrl()],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
      },
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      state: () => {
        this.expectedState = randomBytes(24).toString('base64url');
        return this.expectedState;
      },
      clientInformation: async () => (await read()).client ?? options.client,
      saveClientInformation: (client) => keep({ client }),
      tokens: async () => (await read()).tokens,
      saveTokens: (tokens) => keep({ tokens }),
      saveCodeVerifier: (verifier) => keep({ verifier }),
      codeVerifier: async () => {
        const { verifier } = await read();
        if (!verifier) throw new SignInError('The sign-in lost its PKCE verifier: sign in again.');
        return verifier;
      },
      invalidateCredentials: async (scope) => {
        const kept = await read();
        if (scope === 'all') return options.store.set(this.key, null);
        if (scope === 'client') delete kept.client;
        if (scope === 'tokens') delete kept.tokens;
        if (scope === 'verifier') delete kept.verifier;
        await options.store.set(this.key, JSON.stringify(kept));
      },
      redirectToAuthorization: async (url) => {
        this.received = this.awaitCode();
        // A rejection before anyone waits on it would go unhandled; `code()` reports it.
        this.received.catch(() => undefined);
        await options.open(url);
      },
    };
  }

  /** Starts the loopback listener: the redirect URL exists from here on. */
  async ready(): Promise<void> {
    if (this.server) return;
    const server = createServer((request, response) => this.callback(request.url ?? '/', response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.server = server;
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** Whether a sign-in was started and its code is awaited. */
  get started(): boolean {
    return this.received !== null;
  }

  /** The code the browser brought back; throws a SignInError on a refusal, a bad redirect or the wait running out. */
  async code(): Promise<string> {
    if (!this.received) throw new SignInError('No sign-in was started.');
    try {
      return await this.received;
    } finally {
      this.received = null;
    }
  }

  /** Forgets what is kept for this server (tokens, registration): the next connection signs in again. */
  async forget(): Promise<void> {
    await this.options.store.set(this.key, null);
  }

  /** Whether tokens are kept for this server. */
  async signedIn(): Promise<boolean> {
    return (await this.provider.tokens()) !== undefined;
  }

  async close(): Promise<void> {
    this.pending?.reject(new SignInError('The sign-in was stopped.'));
    const server = this.server;
    this.server = null;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  private awaitCode(): Promise<string> {
    this.pending?.reject(new SignInError('A newer sign-in replaced this one.'));
    const waitMs = this.options.waitMs ?? 5 * 60_000;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = null;
        reject(new SignInError(`The sign-in was not finished in the browser within ${Math.round(waitMs / 1000)} s.`));
      }, waitMs);
      timer.unref();
      const settle = (): void => {
        clearTimeout(timer);
        this.pending = null;
      };
      this.pending = {
        resolve: (code) => {
          settle();
          resolve(code);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
    });
  }

  private callback(target: string, response: ServerResponse): void {
    const url = new URL(target, this.redirectUrl);
    const answer = (status: number, text: string): void => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end(text);
    };
    if (url.pathname !== '/callback') return answer(404, 'Not the sign-in address.');
    const pending = this.pending;
    if (!pending) return answer(409, 'No sign-in is waiting here. Start it again from ÆtherCodex.');
    const error = url.searchParams.get('error');
    const state = url.searchParams.get('state');
    const code = url.searchParams.get('code');
    if (error) {
      const why = url.searchParams.get('error_description') ?? error;
      pending.reject(new SignInError(`The authorization server refused the sign-in: ${why}.`));
      return answer(400, `Sign-in refused: ${why}. You can close this tab.`);
    }
    if (state === null || state !== this.expectedState) {
      pending.reject(
        new SignInError(
          'The sign-in came back with a state that does not match the one sent, so it was not trusted and nothing was kept. Sign in again.',
        ),
      );
      return answer(400, 'This sign-in does not match the one ÆtherCodex started; nothing was kept.');
    }
    if (!code) {
      pending.reject(new SignInError('The sign-in came back without an authorization code. Sign in again.'));
      return answer(400, 'No authorization code came back.');
    }
    pending.resolve(code);
    answer(200, 'Signed in. You can close this tab and go back to ÆtherCodex.');
  }
}

/**
 * The browser's part done by the probe itself: it follows the authorization page's redirects to
 * the loopback address, as a browser would for an authorization server that grants without asking
 * anyone (a test's, the conformance suite's). A page that wants a person ends the sign-in, saying so.
 */
export async function followAuthorization(url: URL): Promise<void> {
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(30_000) });
  await response.body?.cancel();
  if (!new URL(response.url).pathname.endsWith('/callback'))
    throw new SignInError(
      `The authorization page at ${url.origin} wants a person to sign in (it answered ${response.status} without sending the browser back). Sign in from the app instead.`,
    );
  // Back at the loopback address: what went wrong there (a refusal, a state of its own, no code)
  // is the sign-in's own answer, and the code it waits for carries it.
}
