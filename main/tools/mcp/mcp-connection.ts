import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type GetPromptResult,
  type Progress,
  type Prompt,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../../protocol/errors.ts';
import { formatBytes } from '../../../protocol/format.ts';
import { isStdio, serverSandbox, type McpServerConfig } from './mcp-config.ts';
import type { ElicitationHandler } from './mcp-elicitation.ts';
import { SignInError, SignInNeeded, type OAuthSignIn } from './mcp-oauth.ts';
import { mcpStdioTransport } from './mcp-stdio-transport.ts';
import {
  EnvSecretStore,
  missingSecretsMessage,
  redactSecrets,
  resolveSecrets,
  type McpSecretStore,
} from './mcp-secrets.ts';

// One connection to one MCP server: stdio (a child process in a process group of its own, ended
// with everything it started, mcp-stdio-transport.ts; the tail of its stderr is kept) or a remote
// server over streamable HTTP, falling back to the older SSE transport. It lists the server's tools,
// follows `notifications/tools/list_changed`, and calls tools with progress and cancellation.

export type McpStatus = 'stopped' | 'starting' | 'ready' | 'failed';

export interface McpConnectionOptions {
  /** How long the server has to answer `initialize` (default 30 s). */
  initializeTimeoutMs?: number;
  /** Called after the tool list changed (a refresh the server announced). */
  onToolsChanged?: () => void;
  /** Called when a ready connection ends without close() (the server exited or the link broke). */
  onLost?: (reason: string) => void;
  /** Where `${secret:NAME}` in headers and env is looked up (default: the environment). */
  secrets?: McpSecretStore;
  /** The workspace root, real path: what a sandboxed server may write, and the root a server is told (roots/list). */
  workspace?: string;
  /** The person's choice of sandbox for this server, read at each start; null: its entry decides. */
  sandboxChosen?: () => boolean | null;
  /** Without progress, a call fails after this long (default 60 s); each progress report starts it again. */
  callTimeoutMs?: number;
  /** The longest a call may run however often it reports progress (default 30 min). */
  maxCallMs?: number;
  /** Who answers the server's forms (elicitation); without it the client does not offer them. */
  elicit?: ElicitationHandler;
  /** A remote server's OAuth sign-in (mcp-oauth.ts); without it a server that asks for one is refused. */
  oauth?: (serverUrl: string) => OAuthSignIn;
  /** How long one request to the authorization server may take (default 30 s). */
  authRequestMs?: number;
}

/** How many times one connection or call may send the person to sign in before it gives up. */
const MAX_SIGN_INS = 3;
/** How long a request to the authorization server may take (discovery, registration, tokens). */
const AUTH_REQUEST_MS = 30_000;

export interface McpCallOptions {
  signal: AbortSignal;
  onprogress: (progress: Progress) => void;
}

const STDERR_TAIL_BYTES = 16 * 1024;
/**
 * The largest single message read from a stdio server: a result over it ends the connection (the
 * SDK's reader copies its whole buffer for each chunk, so a far larger limit would stall for minutes).
 */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const CLIENT_INFO = { name: 'aethercodex', version: '0.1.0' };

export class McpConnection {
  readonly config: McpServerConfig;
  private readonly options: McpConnectionOptions;
  private client: Client | null = null;
  /** The remote transport and its sign-in, for a step-up a call may need. */
  private remote: { transport: StreamableHTTPClientTransport; signIn: OAuthSignIn } | null = null;
  private stderr = '';
  private closing = false;
  /** The secret values this connection was given: hidden from every message it makes. */
  private secretValues: string[] = [];
  status: McpStatus = 'stopped';
  /** Why the server failed or was lost, for the card and the MCP screen. */
  failure: string | null = null;
  tools: Tool[] = [];

  /** Each call's quiet and total limits: the server's own in mcp.json, else the app's. */
  private readonly timeoutMs: number;
  private readonly maxTotalTimeoutMs: number;

  constructor(config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.config = config;
    this.options = options;
    const { callTimeoutSeconds, maxCallSeconds } = config.transport;
    this.timeoutMs = seconds(callTimeoutSeconds) ?? options.callTimeoutMs ?? 60_000;
    this.maxTotalTimeoutMs = seconds(maxCallSeconds) ?? options.maxCallMs ?? 30 * 60_000;
  }

  /** The SDK's client while connected: the MCP bench calls it bare, on the same server process as the pipeline. */
  get sdkClient(): Client | null {
    return this.client;
  }

  /** The last 16 KiB the server wrote to stderr (stdio servers). */
  get stderrTail(): string {
    return redactSecrets(this.stderr, this.secretValues);
  }

  async start(): Promise<void> {
    this.status = 'starting';
    this.failure = null;
    this.closing = false;
    const timeout = this.options.initializeTimeoutMs ?? 30_000;
    try {
      this.client = await this.connect(timeout);
      this.tools = await this.signedIn(() => this.listTools(), this.finishSignIn);
      this.status = 'ready';
    } catch (error) {
      const client = this.client;
      this.client = null;
      await client?.close().catch(() => undefined);
      this.status = 'failed';
      this.failure =
        error instanceof MissingSecret || error instanceof SignInNeeded
          ? error.message
          : this.withStderr(`The MCP server "${this.config.name}" did not start: ${errorMessage(error)}`);
      throw new Error(this.failure, { cause: error });
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = null;
    this.status = 'stopped';
    await client?.close().catch(() => undefined);
    await this.signIn?.close();
    this.signIn = null;
  }

  private signIn: OAuthSignIn | null = null;

  /** The code of a sign-in the open connection asked for, exchanged for its tokens. */
  private readonly finishSignIn = async (code: string): Promise<void> => {
    if (!this.remote) throw new SignInError(`The MCP server "${this.config.name}" has no sign-in to finish.`);
    await this.remote.transport.finishAuth(code);
  };

  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.status !== 'ready') {
      throw new Error(this.failure ?? `The MCP server "${this.config.name}" is not running.`);
    }
    try {
      const call = () =>
        client.callTool({ name, arguments: args }, undefined, {
          signal: options.signal,
          onprogress: options.onprogress,
          timeout: this.timeoutMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: this.maxTotalTimeoutMs,
        });
      // A server may ask for more scopes mid-session (step-up): sign in again, then call again.
      const result = await this.signedIn(call, this.finishSignIn);
      // A list_changed sent during the call arrives before its result.
      if (this.refreshing) await this.refreshing;
      return result as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw error;
      if (error instanceof SignInError) throw error;
      if (this.status !== 'ready' && this.failure) throw new Error(this.failure, { cause: error });
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        const quiet = this.timeoutMs / 1000;
        const longest = this.maxTotalTimeoutMs / 1000;
        throw new Error(
          `The MCP server "${this.config.name}" did not finish ${name}: it sent no progress for ${quiet} s, or ran past the longest a call may take (${longest} s). To wait longer, set "callTimeoutSeconds" or "maxCallSeconds" for this server in ${this.config.file}.`,
          { cause: error },
        );
      }
      const why = redactSecrets(errorMessage(error), this.secretValues);
      throw new Error(`The MCP server "${this.config.name}" failed the call to ${name}: ${why}`, {
        cause: error,
      });
    }
  }

  /**
   * Reads one resource the server offers (a resource link of a result, for the card's Save…): its
   * bytes as base64 and its type. The server answers within `timeoutMs` or the read fails saying so.
   */
  async readResource(uri: string, timeoutMs: number): Promise<{ data: string; mime_type?: string }> {
    const client = this.client;
    if (!client || this.status !== 'ready') {
      throw new Error(this.failure ?? `The MCP server "${this.config.name}" is not running.`);
    }
    let read;
    try {
      read = await client.readResource({ uri }, { timeout: timeoutMs });
    } catch (error) {
      const why = redactSecrets(errorMessage(error), this.secretValues);
      throw new Error(`The MCP server "${this.config.name}" did not give the resource ${uri}: ${why}`, {
        cause: error,
      });
    }
    const content = read.contents.find((entry) => entry.uri === uri) ?? read.contents[0];
    if (!content) throw new Error(`The MCP server "${this.config.name}" has no content for the resource ${uri}.`);
    const data =
      'blob' in content && typeof content.blob === 'string'
        ? content.blob
        : Buffer.from('text' in content && typeof content.text === 'string' ? content.text : '').toString('base64');
    return { data, ...(content.mimeType ? { mime_type: content.mimeType } : {}) };
  }

  /** The prompts the server offers (none when it offers no prompts), answered within `timeoutMs`. */
  async listPrompts(timeoutMs: number): Promise<Prompt[]> {
    const client = this.client;
    if (!client || this.status !== 'ready' || !client.getServerCapabilities()?.prompts) return [];
    const prompts: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : {}, { timeout: timeoutMs });
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor);
    return prompts;
  }

  /** One prompt with its arguments filled in: its messages, as the server makes them. */
  async getPrompt(name: string, args: Record<string, string>, timeoutMs: number): Promise<GetPromptResult> {
    const client = this.client;
    if (!client || this.status !== 'ready') {
      throw new Error(this.failure ?? `The MCP server "${this.config.name}" is not running.`);
    }
    try {
      return await client.getPrompt({ name, arguments: args }, { timeout: timeoutMs });
    } catch (error) {
      const why = redactSecrets(errorMessage(error), this.secretValues);
      throw new Error(`The MCP server "${this.config.name}" did not give its prompt ${name}: ${why}`, { cause: error });
    }
  }

  /** The resources the server offers (none when it offers no resources), answered within `timeoutMs`. */
  async listResources(timeoutMs: number): Promise<Resource[]> {
    const client = this.client;
    if (!client || this.status !== 'ready' || !client.getServerCapabilities()?.resources) return [];
    const resources: Resource[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {}, { timeout: timeoutMs });
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor && resources.length < 1000);
    return resources;
  }

  /** Header or env entries with their secrets filled in; a missing secret fails the start, naming it. */
  private async withSecrets(entries: Record<string, string>): Promise<Record<string, string>> {
    const secrets = this.options.secrets ?? new EnvSecretStore();
    const resolved = await resolveSecrets(entries, secrets);
    if (!resolved.ok)
      throw new MissingSecret(missingSecretsMessage(this.config.name, this.config.file, resolved, secrets));
    this.secretValues = resolved.values;
    return resolved.entries;
  }

  private async connect(timeoutMs: number): Promise<Client> {
    const { transport } = this.config;
    if (isStdio(transport)) {
      const env = await this.withSecrets(transport.env);
      const sandbox = serverSandbox(this.config, this.options.sandboxChosen?.() ?? null);
      if (sandbox && !this.options.workspace)
        throw new Error(
          `The MCP server "${this.config.name}" runs in the sandbox, which needs the workspace it may write.`,
        );
      const stdio = mcpStdioTransport({
        command: transport.command,
        args: transport.args,
        env: { ...getDefaultEnvironment(), ...env },
        ...(transport.cwd ? { cwd: transport.cwd } : {}),
        maxBufferSize: MAX_MESSAGE_BYTES,
        ...(sandbox && this.options.workspace
          ? { sandbox: { rules: sandbox, workspace: this.options.workspace } }
          : {}),
      });
      stdio.stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk.toString('utf8')));
      return this.initialize(stdio, timeoutMs);
    }
    const url = new URL(transport.url);
    const requestInit = { headers: await this.withSecrets(transport.headers) };
    const signIn = this.options.oauth?.(transport.url) ?? null;
    await signIn?.ready();
    this.signIn = signIn;
    const streamable = (): StreamableHTTPClientTransport => {
      const made = new StreamableHTTPClientTransport(url, {
        requestInit,
        ...(signIn
          ? { authProvider: signIn.provider, fetch: authTimedFetch(url, this.options.authRequestMs ?? AUTH_REQUEST_MS) }
          : {}),
      });
      if (signIn) this.remote = { transport: made, signIn };
      return made;
    };
    try {
      let attempt = streamable();
      return await this.signedIn(
        () => this.initialize(attempt, timeoutMs),
        async (code) => {
          await attempt.finishAuth(code);
          attempt = streamable();
        },
      );
    } catch (streamable) {
      // Signing in is the streamable transport's; a failed one says why, without trying SSE.
      if (streamable instanceof SignInError || streamable instanceof UnauthorizedError) throw streamable;
      // Without an Authorization header of mcp.json's own, a 401 asks for a sign-in.
      const ownAuthorization = Object.keys(transport.headers).some((name) => name.toLowerCase() === 'authorization');
      if (!signIn && !ownAuthorization && streamable instanceof StreamableHTTPError && streamable.code === 401)
        throw new SignInError(
          `The MCP server "${this.config.name}" needs a sign-in (OAuth; it answered 401), and this host has no browser to sign in with. \`aether acp\` signs in through your browser; \`aether mcp probe ${transport.url}\` tries a sign-in once.`,
        );
      // A server that only speaks the 2024-11-05 transport answers the POST with 4xx; try SSE.
      try {
        return await this.initialize(new SSEClientTransport(url, { requestInit }), timeoutMs);
      } catch (sse) {
        throw new Error(
          `${transport.url} answered neither streamable HTTP (${errorMessage(streamable)}) nor SSE (${errorMessage(sse)})`,
          { cause: sse },
        );
      }
    }
  }

  private async initialize(transport: Transport, timeoutMs: number): Promise<Client> {
    const elicit = this.options.elicit;
    const { workspace } = this.options;
    const client = new Client(CLIENT_INFO, {
      capabilities: {
        // A form's defaults fill what its answer leaves out (the SDK applies them to the content).
        ...(elicit ? { elicitation: { form: { applyDefaults: true } } } : {}),
        // The workspace is the one root a server is told it works in.
        ...(workspace ? { roots: { listChanged: false } } : {}),
      },
      listChanged: {
        // Fetched here, not by the SDK after its 300 ms pause: a call's result waits for the new
        // list, so the model's next request already names a tool the call added.
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.refreshTools() },
      },
    });
    if (workspace) {
      client.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
      }));
    }
    if (elicit) {
      client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        if (request.params.mode === 'url') return { action: 'decline' };
        return elicit(this.config.name, request.params, extra.signal);
      });
    }
    let lastError: string | null = null;
    // A connection that closes before it was made is a failed connect, which says why itself (a
    // 401 before a sign-in, say); only a made one is lost.
    let made = false;
    client.onclose = () => {
      if (made) this.lost(lastError ? `the connection closed after ${lastError}` : 'the connection closed');
    };
    client.onerror = (error) => {
      lastError = /ReadBuffer exceeded/.test(errorMessage(error))
        ? `a message larger than ${formatBytes(MAX_MESSAGE_BYTES)}, the most one answer may be`
        : errorMessage(error);
    };
    try {
      await client.connect(transport, { timeout: timeoutMs });
      made = true;
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /**
   * Runs `op`; when the server sent the person to sign in (an UnauthorizedError after the browser
   * was opened), waits for the code, hands it to `finish` and runs `op` again, a few times at most.
   */
  private async signedIn<T>(op: () => Promise<T>, finish: (code: string) => Promise<void>): Promise<T> {
    for (let signIns = 0; ; signIns += 1) {
      try {
        return await op();
      } catch (error) {
        const signIn = this.signIn;
        // The SDK signs in again once for a 403 insufficient_scope; a second one means it is never granted.
        const refusedScope =
          signIn && error instanceof StreamableHTTPError && error.code === 403 && /upscoping/.test(error.message);
        if (refusedScope || (signIn?.started && error instanceof UnauthorizedError && signIns >= MAX_SIGN_INS)) {
          if (signIn.started) await signIn.code().catch(() => undefined);
          // Tokens without the access the server wants are of no use: the next connection starts afresh.
          await signIn.forget();
          throw new SignInError(
            `The MCP server "${this.config.name}" still refused after signing in again: it asks for access (a scope) its authorization server does not grant. Its tokens were forgotten and no token is kept; ask the server's owner which scopes it needs.`,
          );
        }
        if (!(error instanceof UnauthorizedError) || !signIn?.started) throw signInFailure(error, this.config.name);
        const code = await signIn.code();
        try {
          await finish(code);
        } catch (failed) {
          throw signInFailure(failed, this.config.name);
        }
      }
    }
  }

  /** The tool list being fetched again after `notifications/tools/list_changed`. */
  private refreshing: Promise<void> | null = null;

  private refreshTools(): void {
    const refresh = this.listTools()
      .then((tools) => {
        this.tools = tools;
        this.options.onToolsChanged?.();
      })
      .catch(() => undefined)
      .finally(() => {
        if (this.refreshing === refresh) this.refreshing = null;
      });
    this.refreshing = refresh;
  }

  private async listTools(): Promise<Tool[]> {
    const client = this.client;
    if (!client) return [];
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private lost(how: string): void {
    if (this.closing || this.status === 'stopped') return;
    const wasReady = this.status === 'ready';
    this.status = 'failed';
    this.client = null;
    this.failure = this.withStderr(`The MCP server "${this.config.name}" stopped: ${how}.`);
    if (wasReady) this.options.onLost?.(this.failure);
  }

  private keepStderr(text: string): void {
    this.stderr = (this.stderr + text).slice(-STDERR_TAIL_BYTES);
  }

  private withStderr(message: string): string {
    const tail = this.stderr.trim().split('\n').slice(-10).join('\n');
    return redactSecrets(tail ? `${message}\nIts stderr ended with:\n${tail}` : message, this.secretValues);
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

/** A secret the configuration names is not set: the message says which and where to set it. */
class MissingSecret extends Error {}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 1000);
}
