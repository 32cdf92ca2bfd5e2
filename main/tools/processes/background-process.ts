import { CallProcesses, type Ending } from '../exec/call-processes.ts';
import type { CommandRequest } from '../exec/command-spawn.ts';
import { OUTPUT_GRACE_MS } from '../exec/run-in-group.ts';
import type { Clock } from '../progress-reporter.ts';
import { firstMatch } from './line-pattern.ts';
import { withoutEscapes } from '../../../protocol/processes.ts';
import { ProcessOutput, type ProcessOutputLimits } from './process-output.ts';
import { pipedProcess, terminalProcess, type ProcessExit, type ProcessIo } from './process-io.ts';
import { TerminalScreen } from './terminal-screen.ts';
import type { Readable } from 'node:stream';
import type { ProcessEndReason, ProcessState } from '../../../protocol/processes.ts';

// One command that keeps running after the call that started it returned: its processes (a
// process group of its own, each marked, as exec's are), its output kept in a bounded ring and on
// disk, the screen of its terminal when it has one, and the waits for a line of its output.
// Whatever way it ends — by itself, stopped, or with its session — everything it started ends
// with it.

export interface BackgroundStart {
  id: string;
  callId: string;
  request: CommandRequest;
  tty: boolean;
  /** Base path of its output files (process-output.ts). */
  outputBase: string;
  limits: ProcessOutputLimits;
  clock: Clock;
  killGraceMs: number;
  /** A command that was running in the foreground and moves here: its pipes, processes and output so far. */
  adopt?: AdoptedCommand;
}

/** A foreground command taken over as it runs (exec's timeout, the card's Keep running). */
export interface AdoptedCommand {
  io: ProcessIo;
  processes: CallProcesses;
  /** What it printed before it moved (as much as the foreground run kept). */
  earlier: Buffer;
  /** When it started, by the clock. */
  startedAt: number;
}

/** What waiting for a line came to. */
export type WaitEnd = { kind: 'matched'; line: string } | { kind: 'exited' } | { kind: 'timed_out' };

interface Waiter {
  pattern: RegExp | null;
  /** Where the next look starts: the start of a line not yet seen whole. */
  from: number;
  done(end: WaitEnd): void;
  fail(error: unknown): void;
}

export class BackgroundProcess {
  readonly id: string;
  readonly callId: string;
  readonly command: string;
  readonly tty: boolean;
  readonly startedAt: number;
  /** When it started, as ISO time (the durable record's). */
  readonly startedAtIso: string;
  readonly output: ProcessOutput;
  readonly screen: TerminalScreen | null;
  /** Where a read without `since` goes on from. */
  cursor = 0;
  private readonly io: ProcessIo;
  private readonly processes: CallProcesses;
  private readonly clock: Clock;
  private readonly killGraceMs: number;
  private currentState: ProcessState = 'running';
  private exit: ProcessExit | null = null;
  private reason: ProcessEndReason | null = null;
  private failure: string | null = null;
  private endedAt: number | null = null;
  private left: Ending | null = null;
  private waiters = new Set<Waiter>();
  private lookScheduled = false;
  private stopping: Promise<void> | null = null;
  private readonly endedListeners: (() => void)[] = [];
  /** Resolves once the process and everything it started has ended and its output is all in. */
  readonly ended: Promise<void>;

  constructor(start: BackgroundStart) {
    this.id = start.id;
    this.callId = start.callId;
    this.command = start.request.command;
    this.tty = start.tty;
    this.clock = start.clock;
    this.killGraceMs = start.killGraceMs;
    this.startedAt = start.adopt?.startedAt ?? start.clock.now();
    this.startedAtIso = new Date(Date.now() - (start.clock.now() - this.startedAt)).toISOString();
    this.output = new ProcessOutput(start.outputBase, start.limits);
    this.screen = start.tty ? new TerminalScreen() : null;
    if (start.adopt) {
      this.processes = start.adopt.processes;
      this.io = start.adopt.io;
      this.output.append(start.adopt.earlier);
    } else {
      this.processes = new CallProcesses();
      const request = { ...start.request, env: this.processes.environment(start.request.env) };
      this.io = start.tty ? terminalProcess(request) : pipedProcess(request);
      this.processes.started(this.io.pid);
    }
    this.ended = new Promise((resolve) => this.endedListeners.push(resolve));
    this.io.onData((chunk) => this.take(chunk));
    this.io.onError((error) => this.finish('failed_to_start', { code: null, signal: null }, error.message));
    this.io.onExit((exit) => void this.exited(exit));
  }

  get pid(): number | undefined {
    return this.io.pid;
  }

  get state(): ProcessState {
    return this.currentState;
  }

  get running(): boolean {
    return this.currentState === 'running';
  }

  /** Whether its processes may still run: it runs here, or was left running when the app ended. */
  private get mayRun(): boolean {
    return this.currentState === 'running' || this.currentState === 'left_running';
  }

  /** Where its output goes on after it was left running. */
  outputAfter: string | null = null;

  get exitCode(): number | null {
    return this.exit?.code ?? null;
  }

  get signal(): string | null {
    return this.exit?.signal ?? null;
  }

  get endReason(): ProcessEndReason | null {
    return this.reason;
  }

  get error(): string | null {
    return this.failure;
  }

  get leftBehind(): Ending | null {
    return this.left;
  }

  /** Milliseconds it ran (so far, while it runs). */
  uptimeMs(): number {
    return Math.max(0, Math.round((this.endedAt ?? this.clock.now()) - this.startedAt));
  }

  /** Its processes now: the group and everything marked as its own (empty once it ended). */
  pids(): number[] {
    if (!this.mayRun) return [];
    const found = this.processes.scan();
    return found ? found.map(({ pid }) => pid) : this.pid !== undefined ? [this.pid] : [];
  }

  /** Told once when it has ended, however it did. */
  onEnded(listener: () => void): void {
    if (this.endedAt !== null) listener();
    else this.endedListeners.push(listener);
  }

  /** Writes to its input: a terminal gets Enter (`\r`) for each line break, as a keyboard sends it. */
  write(text: string): void {
    if (!this.running) throw new Error('it is not running');
    this.io.write(this.tty ? text.replace(/\r?\n/g, '\r') : text);
  }

  /**
   * Waits until a line from `from` on matches `pattern` (null: any new output), the process ends,
   * `timeoutMs` passes or `signal` aborts (which rejects). A pattern too slow to match fails it.
   */
  waitFor(pattern: RegExp | null, from: number, timeoutMs: number, signal: AbortSignal): Promise<WaitEnd> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        this.waiters.delete(waiter);
        this.clock.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        pattern,
        from,
        done: (end) => (settle(), resolve(end)),
        fail: (error) => (settle(), reject(error as Error)),
      };
      const onAbort = (): void => waiter.fail(signal.reason);
      const timer = this.clock.setTimeout(() => waiter.done({ kind: 'timed_out' }), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      this.look(waiter);
      if (this.waiters.has(waiter) && !this.running) waiter.done({ kind: 'exited' });
    });
  }

  /** Ends it and everything it started: SIGTERM, SIGKILL after the grace to what is left. */
  stop(reason: ProcessEndReason): Promise<void> {
    if (!this.running) return this.ended;
    this.stopping ??= (async () => {
      this.reason = reason;
      const ending = await this.processes.end(this.killGraceMs, this.clock);
      this.left = ending;
      // The terminal's or the pipes' last bytes arrive after the exit; their end is the process's end.
      await this.closedOrQuiet();
      this.finish('stopped', this.exit ?? { code: null, signal: 'SIGTERM' });
    })();
    return this.stopping.then(() => this.ended);
  }

  /**
   * Leaves it running after this app ends: its output pipes go to `keeper` (a process that goes on
   * writing them to a file), it leaves the processes the app ends as it exits, and it is recorded as
   * left running. False for a terminal, which closes with the app.
   */
  leaveRunning(keeper: (pipes: { stdout: Readable; stderr: Readable }) => string): boolean {
    if (!this.running || this.stopping || !this.io.handOver) return false;
    this.outputAfter = keeper(this.io.handOver());
    this.processes.letGo();
    this.finish('left_running', { code: null, signal: null });
    return true;
  }

  private take(chunk: Buffer): void {
    this.output.append(chunk);
    this.screen?.write(chunk);
    if (this.waiters.size > 0 && !this.lookScheduled) {
      // One look for everything that arrived in this turn of the event loop.
      this.lookScheduled = true;
      setImmediate(() => {
        this.lookScheduled = false;
        for (const waiter of this.waiters) this.look(waiter);
      });
    }
  }

  private look(waiter: Waiter): void {
    if (waiter.pattern === null) {
      if (this.output.bytes > waiter.from) waiter.done({ kind: 'matched', line: '' });
      return;
    }
    const slice = this.output.read(waiter.from, LOOK_WINDOW_BYTES);
    if (slice.text === '') return;
    const lines = withoutEscapes(slice.text).split(/\r?\n/);
    const lastBreak = slice.text.lastIndexOf('\n');
    try {
      const line = firstMatch(waiter.pattern, lines);
      if (line !== null) return waiter.done({ kind: 'matched', line });
    } catch (error) {
      return waiter.fail(error);
    }
    // A line still arriving is looked at again, whole, with what completes it.
    if (lastBreak !== -1) waiter.from = slice.from + Buffer.byteLength(slice.text.slice(0, lastBreak + 1));
  }

  private async exited(exit: ProcessExit): Promise<void> {
    // Left running: what it does now is its own.
    if (this.currentState === 'left_running') return;
    this.exit = exit;
    if (this.stopping) return;
    // What it left running (a daemon holding the output open) is ended: the command is over.
    await this.closedOrQuiet();
    if (this.stopping || this.currentState !== 'running') return;
    this.left = await this.processes.end(this.killGraceMs, this.clock);
    if (this.stopping) return;
    this.finish('exited', exit);
  }

  /** Waits for the output to close, or for it to stay quiet for the output grace. */
  private closedOrQuiet(): Promise<void> {
    return new Promise((resolve) => {
      let timer: unknown = null;
      const done = (): void => {
        this.clock.clearTimeout(timer);
        resolve();
      };
      this.io.onClosed(done);
      timer = this.clock.setTimeout(done, OUTPUT_GRACE_MS);
    });
  }

  private finish(state: ProcessState, exit: ProcessExit, error?: string): void {
    if (this.endedAt !== null) return;
    this.currentState = state;
    this.exit = exit;
    if (error) this.failure = error;
    this.endedAt = this.clock.now();
    this.io.release();
    this.output.close();
    for (const waiter of this.waiters) this.look(waiter);
    for (const waiter of this.waiters) waiter.done({ kind: 'exited' });
    for (const listener of this.endedListeners.splice(0)) listener();
  }
}

/** The most of the new output one look reads: a waiter further behind looks at the newest part. */
const LOOK_WINDOW_BYTES = 256 * 1024;
