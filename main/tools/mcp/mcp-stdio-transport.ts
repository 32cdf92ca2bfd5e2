import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough, type Stream } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallProcesses } from '../exec/call-processes.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';
import { sandboxForCommand, type SandboxLaunch } from '../sandbox/sandbox-launch.ts';
import type { SandboxRules } from '../../../protocol/sandbox.ts';

// A stdio MCP server started the way exec starts a command: the leader of a process group of its
// own, its environment marked (call-processes.ts), so that what it starts — `npx` starts the
// server, a server starts helpers — is found and ended with it, even a child that moved to a
// session of its own, and what a crashed app left is ended at the next start. (The SDK's
// StdioClientTransport spawns in the app's group and stops only its direct child.) Closing follows
// the MCP specification: stdin is closed and the server has a grace to exit, then everything it
// started gets SIGTERM, then SIGKILL. A server that exits by itself has the rest ended too.
// On Windows, where there are no process groups, the SDK's transport is used as it is.

/** How long a server has to exit once its stdin is closed, and then once it was sent SIGTERM. */
export const MCP_STOP_GRACE_MS = 2000;

export interface McpStdioServer {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** A single message larger than this ends the connection. */
  maxBufferSize: number;
  stopGraceMs?: number;
  clock?: Clock;
  /** Runs the server in the sandbox with these rules, the workspace writable. */
  sandbox?: { rules: SandboxRules; workspace: string };
}

export type McpStdioTransport = Transport & { readonly stderr: Stream | null };

export function mcpStdioTransport(server: McpStdioServer, platform = process.platform): McpStdioTransport {
  if (platform === 'win32') {
    const { command, args, env, cwd, maxBufferSize } = server;
    return new StdioClientTransport({ command, args, env, ...(cwd ? { cwd } : {}), stderr: 'pipe', maxBufferSize });
  }
  return new GroupStdioTransport(server);
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, there before start() so that its first lines are not missed. */
  readonly stderr = new PassThrough();
  private readonly server: McpStdioServer;
  private readonly processes = new CallProcesses();
  private readonly readBuffer: ReadBuffer;
  private child: ChildProcessWithoutNullStreams | null = null;
  private ending: Promise<void> | null = null;
  private starting = false;
  private sandbox: SandboxLaunch | null = null;

  constructor(server: McpStdioServer) {
    this.server = server;
    this.readBuffer = new ReadBuffer({ maxBufferSize: server.maxBufferSize });
  }

  /** The server's pid once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async start(): Promise<void> {
    if (this.child || this.starting) throw new Error('This MCP server transport was started already.');
    this.starting = true;
    const { command, args, env, cwd, sandbox } = this.server;
    // Where no sandbox can start, the server does not start: never unsandboxed without the person's say.
    this.sandbox = sandbox
      ? await sandboxForCommand(sandbox.rules, { workspace: sandbox.workspace, cwd: cwd ?? sandbox.workspace })
      : null;
    const argv = [command, ...args];
    const [file = command, ...rest] = this.sandbox?.wrap(argv) ?? argv;
    const child = spawn(file, rest, {
      env: this.processes.environment(this.sandbox?.env(env) ?? env),
      ...(cwd ? { cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    this.processes.started(child.pid);
    this.sandbox?.started(child.pid);
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', this.read);
    child.stderr.pipe(this.stderr);
    // However it exits, what it started goes with it.
    child.once('exit', () => void this.end(false));
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
        void this.end(false);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.ending || !stdin.writable) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    return this.end(true);
  }

  private readonly read = (chunk: Buffer): void => {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      // Larger than a message may be: the connection ends, and the rest of it is not read.
      this.child?.stdout.off('data', this.read);
      this.onerror?.(error as Error);
      void this.end(false);
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  };

  /** Ends the server and everything it started, once; `politely` closes stdin and waits first. */
  private end(politely: boolean): Promise<void> {
    this.ending ??= this.endAll(politely);
    return this.ending;
  }

  private async endAll(politely: boolean): Promise<void> {
    const child = this.child;
    const graceMs = this.server.stopGraceMs ?? MCP_STOP_GRACE_MS;
    const clock = this.server.clock ?? systemClock;
    // The grace timer is cleared when the event comes first: it would keep a finishing process alive.
    const within = (ms: number, event: Promise<unknown>): Promise<void> =>
      new Promise((resolve) => {
        const timer = clock.setTimeout(() => resolve(), ms);
        void event.then(() => {
          clock.clearTimeout(timer);
          resolve();
        });
      });
    if (child?.pid !== undefined) {
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      });
      if (politely && child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await within(graceMs, exited);
      }
      await this.processes.end(graceMs, clock);
      // Once nothing holds its pipes, the last messages it wrote are read before the close.
      const closed = new Promise<void>((resolve) => {
        if (child.stdout.closed) resolve();
        else child.stdout.once('close', () => resolve());
      });
      await within(graceMs, Promise.all([exited, closed]));
      child.stdout.destroy();
      child.stderr.destroy();
    }
    this.readBuffer.clear();
    await this.sandbox?.close();
    this.onclose?.();
  }
}
