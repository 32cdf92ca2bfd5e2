import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage } from '../../../protocol/errors.ts';
import { SignInError, type OAuthSignIn } from './mcp-oauth.ts';

// How a remote MCP server is reached: over streamable HTTP, signed in to with OAuth when it asks
// (mcp-oauth.ts holds the provider and the loopback redirect), else over the older SSE transport;
// and how a request the server answered by sending the person to sign in is made again once they did.

/** How many times one connection or call may send the person to sign in before it gives up. */
const MAX_SIGN_INS = 3;
/** How long a request to the authorization server may take (discovery, registration, tokens). */
export const AUTH_REQUEST_MS = 30_000;

export interface RemoteServer {
  name: string;
  url: string;
  /** The headers as mcp.json names them (an Authorization header of its own means no sign-in is asked for). */
  headers: Record<string, string>;
}

export interface RemoteLink {
  /** The headers with their secrets filled in. */
  requestInit: RequestInit;
  /** The connection's sign-in, started (its loopback listener up); null: the host cannot sign in. */
  signIn: OAuthSignIn | null;
  /** The connection's sign-in as it stands when a request fails (none once the connection was closed). */
  currentSignIn: () => OAuthSignIn | null;
  authRequestMs: number;
  /** Makes the MCP client over a transport (the `initialize` handshake). */
  initialize(transport: Transport): Promise<Client>;
  /** Each streamable transport made with a sign-in: a later step-up finishes its sign-in on it. */
  signingInOver(transport: StreamableHTTPClientTransport): void;
}

/** Connects to a remote server, signing in when it asks; a server that only speaks SSE is reached over SSE. */
export async function connectRemote(server: RemoteServer, link: RemoteLink): Promise<Client> {
  const url = new URL(server.url);
  const { requestInit, signIn } = link;
  const streamable = (): StreamableHTTPClientTransport => {
    const made = new StreamableHTTPClientTransport(url, {
      requestInit,
      ...(signIn ? { authProvider: signIn.provider, fetch: authTimedFetch(url, link.authRequestMs) } : {}),
    });
    if (signIn) link.signingInOver(made);
    return made;
  };
  try {
    let attempt = streamable();
    return await withSignIn(
      server.name,
      link.currentSignIn,
      () => link.initialize(attempt),
      async (code) => {
        await attempt.finishAuth(code);
        attempt = streamable();
      },
    );
  } catch (streamable) {
    // Signing in is the streamable transport's; a failed one says why, without trying SSE.
    if (streamable instanceof SignInError || streamable instanceof UnauthorizedError) throw streamable;
    // Without an Authorization header of mcp.json's own, a 401 asks for a sign-in.
    const ownAuthorization = Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization');
    if (!signIn && !ownAuthorization && streamable instanceof StreamableHTTPError && streamable.code === 401)
      throw new SignInError(
        `The MCP server "${server.name}" needs a sign-in (OAuth; it answered 401), and this host has no browser to sign in with. \`aether acp\` signs in through your browser; \`aether mcp probe ${server.url}\` tries a sign-in once.`,
      );
    // A server that only speaks the 2024-11-05 transport answers the POST with 4xx; try SSE.
    try {
      return await link.initialize(new SSEClientTransport(url, { requestInit }));
    } catch (sse) {
      throw new Error(
        `${server.url} answered neither streamable HTTP (${errorMessage(streamable)}) nor SSE (${errorMessage(sse)})`,
        { cause: sse },
      );
    }
  }
}

/**
 * Runs `op`; when the server sent the person to sign in (an UnauthorizedError after the browser
 * was opened), waits for the code, hands it to `finish` and runs `op` again, a few times at most.
 */
export async function withSignIn<T>(
  server: string,
  currentSignIn: () => OAuthSignIn | null,
  op: () => Promise<T>,
  finish: (code: string) => Promise<void>,
): Promise<T> {
  for (let signIns = 0; ; signIns += 1) {
    try {
      return await op();
    } catch (error) {
      const signIn = currentSignIn();
      // The SDK signs in again once for a 403 insufficient_scope; a second one means it is never granted.
      const refusedScope =
        signIn && error instanceof StreamableHTTPError && error.code === 403 && /upscoping/.test(error.message);
      if (refusedScope || (signIn?.started && error instanceof UnauthorizedError && signIns >= MAX_SIGN_INS)) {
        if (signIn.started) await signIn.code().catch(() => undefined);
        // Tokens without the access the server wants are of no use: the next connection starts afresh.
        await signIn.forget();
        throw new SignInError(
          `The MCP server "${server}" still refused after signing in again: it asks for access (a scope) its authorization server does not grant. Its tokens were forgotten and no token is kept; ask the server's owner which scopes it needs.`,
        );
      }
      if (!(error instanceof UnauthorizedError) || !signIn?.started) throw signInFailure(error, server);
      const code = await signIn.code();
      try {
        await finish(code);
      } catch (failed) {
        throw signInFailure(failed, server);
      }
    }
  }
}

/** A request to the authorization server that hangs fails after AUTH_REQUEST_MS; the server's own requests are left alone. */
function authTimedFetch(server: URL, limitMs: number): typeof fetch {
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin === server.origin && target.pathname === server.pathname) return fetch(input, init);
    const timeout = AbortSignal.timeout(limitMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal }).catch((error: unknown) => {
      if (timeout.aborted)
        throw new SignInError(
          `${target.origin} did not answer within ${limitMs / 1000} s while signing in; no token was kept. Try again later.`,
        );
      throw error;
    });
  };
}

/** A sign-in that failed, in words: what the authorization server said, and that nothing was kept. */
function signInFailure(error: unknown, server: string): unknown {
  if (error instanceof SignInError) return error;
  if (error instanceof UnauthorizedError)
    return new SignInError(`The MCP server "${server}" needs a sign-in (OAuth), and this host cannot open one.`);
  const name = error instanceof Error ? error.constructor.name : '';
  if (/Error$/.test(name) && /OAuth|Token|Client|Grant|Server|Scope/.test(name) && error instanceof Error)
    return new SignInError(
      `Signing in to the MCP server "${server}" failed: ${error.message || name}. No token was kept.`,
    );
  return error;
}
