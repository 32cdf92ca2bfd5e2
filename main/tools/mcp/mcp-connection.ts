import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
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
import { allPages, newMcpClient } from './mcp-client.ts';
import type { ElicitationHandler } from './mcp-elicitation.ts';
import { SignInError, SignInNeeded, type OAuthSignIn } from './mcp-oauth.ts';
import { AUTH_REQUEST_MS, connectRemote, withSignIn } from './mcp-remote-connect.ts';
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
// server over streamable HTTP, falling back to the older SSE transport, signed in to when it asks
// (mcp-remote-connect.ts). It lists the server's tools, follows `notifications/tools/list_changed`,
// and calls tools with progress and cancellation.

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
    return allPages(
      (params) => client.listPrompts(params, { timeout: timeoutMs }),
      (page) => page.prompts,
    );
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
    return allPages(
      (params) => client.listResources(params, { timeout: timeoutMs }),
      (page) => page.resources,
      1000,
    );
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
    const requestInit = { headers: await this.withSecrets(transport.headers) };
    const signIn = this.options.oauth?.(transport.url) ?? null;
    await signIn?.ready();
    this.signIn = signIn;
    return connectRemote(
      { name: this.config.name, url: transport.url, headers: transport.headers },
      {
        requestInit,
        signIn,
        currentSignIn: () => this.signIn,
        authRequestMs: this.options.authRequestMs ?? AUTH_REQUEST_MS,
        initialize: (made) => this.initialize(made, timeoutMs),
        signingInOver: (made) => {
          if (signIn) this.remote = { transport: made, signIn };
        },
      },
    );
  }

  private async initialize(transport: Transport, timeoutMs: number): Promise<Client> {
    const client = newMcpClient({
      server: this.config.name,
      ...(this.options.elicit ? { elicit: this.options.elicit } : {}),
      ...(this.options.workspace ? { workspace: this.options.workspace } : {}),
      onToolsChanged: () => this.refreshTools(),
    });
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

  /** Runs `op`, signing in again when the server sends the person to (mcp-remote-connect.ts). */
  private signedIn<T>(op: () => Promise<T>, finish: (code: string) => Promise<void>): Promise<T> {
    return withSignIn(this.config.name, () => this.signIn, op, finish);
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
    return allPages(
      (params) => client.listTools(params),
      (page) => page.tools,
    );
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

/** A secret the configuration names is not set: the message says which and where to set it. */
class MissingSecret extends Error {}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 1000);
}
