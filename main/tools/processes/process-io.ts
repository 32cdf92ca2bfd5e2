import { createRequire } from 'node:module';
import { constants } from 'node:os';
import type * as NodePtyModule from '@lydell/node-pty';
import { commandLaunch, spawnInGroup, type CommandRequest, type PipedChild } from '../exec/command-spawn.ts';
import type { Readable } from 'node:stream';
import { TERMINAL_COLS, TERMINAL_ROWS } from './terminal-screen.ts';

// The two ways a background process is connected: pipes (stdin, and stdout and stderr
// interleaved) or a pseudo-terminal (node-pty), for programs that behave differently on a
// terminal — REPLs, prompts, progress bars. Both start from exec's launch (command-spawn.ts), in a
// process group of their own: a child with `detached`, a terminal's child as the leader of a new
// session. Output arrives as bytes either way.

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export interface ProcessIo {
  /** Undefined when it did not start. */
  readonly pid: number | undefined;
  readonly tty: boolean;
  onData(listener: (chunk: Buffer) => void): void;
  /** The process itself ended (its output may still be arriving from what it started). */
  onExit(listener: (exit: ProcessExit) => void): void;
  /** Its output can no longer arrive: the pipes closed, or the terminal was let go. */
  onClosed(listener: () => void): void;
  onError(listener: (error: Error) => void): void;
  /** Writes to its input; throws when the input is closed. */
  write(text: string): void;
  /** Lets go of the pipes or the terminal (after the process ended). */
  release(): void;
  /**
   * Pipes only: stops reading its output here and gives the pipes, for another process to read
   * from (`aether run --keep-processes`). A terminal has none to give: it closes with the app.
   */
  handOver?(): { stdout: Readable; stderr: Readable };
}

export function pipedProcess(request: CommandRequest): ProcessIo {
  const child = spawnInGroup(commandLaunch(request));
  request.wrapper?.started(child.pid);
  return pipedIo(child);
}

/** The pipes of a child already running (one that moves from the foreground keeps its own). */
export function pipedIo(child: PipedChild): ProcessIo {
  let closed = child.stdout.closed && child.stderr.closed;
  child.once('close', () => (closed = true));
  // A write to a process that exited meanwhile fails with EPIPE on the stream: not the app's crash.
  child.stdin.on('error', () => undefined);
  return {
    pid: child.pid,
    tty: false,
    onData(listener) {
      child.stdout.on('data', listener);
      child.stderr.on('data', listener);
      // A run that paused its reading (its spill file was behind) hands the pipes over paused.
      child.stdout.resume();
      child.stderr.resume();
    },
    onExit(listener) {
      if (child.exitCode !== null || child.signalCode !== null)
        return void queueMicrotask(() => listener({ code: child.exitCode, signal: child.signalCode }));
      child.once('exit', (code, signal) => listener({ code, signal }));
    },
    onClosed: (listener) => void (closed ? listener() : child.once('close', listener)),
    onError: (listener) => void child.once('error', listener),
    write(text) {
      if (child.stdin.destroyed || !child.stdin.writable) throw new Error('its input is closed');
      child.stdin.write(text);
    },
    release() {
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
    },
    handOver() {
      child.stdout.removeAllListeners('data');
      child.stderr.removeAllListeners('data');
      child.stdout.pause();
      child.stderr.pause();
      // It runs on without this app: its end no longer keeps the app waiting.
      child.unref();
      return { stdout: child.stdout, stderr: child.stderr };
    },
  };
}

const require = createRequire(import.meta.url);

type NodePty = typeof NodePtyModule;

/** node-pty, loaded on first use (a native module: exec without a terminal never loads it). */
function nodePty(): NodePty {
  return require('@lydell/node-pty') as NodePty;
}

export function terminalProcess(request: CommandRequest): ProcessIo {
  const launch = commandLaunch(request);
  const terminal = nodePty().spawn(launch.file, launch.args, {
    name: 'xterm-256color',
    cols: TERMINAL_COLS,
    rows: TERMINAL_ROWS,
    cwd: launch.cwd,
    env: launch.env,
    // Raw bytes: the output is kept and counted as bytes, and the screen parses them itself.
    encoding: null,
  });
  request.wrapper?.started(terminal.pid);
  let exited = false;
  const closedListeners: (() => void)[] = [];
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    for (const listener of closedListeners.splice(0)) listener();
  };
  terminal.onExit(() => {
    exited = true;
    // The terminal's reader delivers what the program wrote before its end; nothing comes after it.
    setImmediate(close);
  });
  return {
    pid: terminal.pid,
    tty: true,
    onData: (listener) => void terminal.onData((data) => listener(toBuffer(data))),
    onExit(listener) {
      terminal.onExit(({ exitCode, signal }) =>
        listener({ code: signal ? null : exitCode, signal: signal ? signalName(signal) : null }),
      );
    },
    onClosed: (listener) => void (closed ? listener() : closedListeners.push(listener)),
    onError: () => undefined,
    write(text) {
      if (exited) throw new Error('its terminal is closed');
      terminal.write(text);
    },
    release() {
      close();
    },
  };
}

function toBuffer(data: string | Buffer): Buffer {
  return typeof data === 'string' ? Buffer.from(data) : data;
}

function signalName(signal: number): string {
  const names = Object.entries(constants.signals as Record<string, number>);
  return names.find(([, number]) => number === signal)?.[0] ?? `signal ${signal}`;
}
