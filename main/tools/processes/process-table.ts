import path from 'node:path';
import type { ProcessEndReason, ProcessInfo } from '../../../protocol/processes.ts';
import { KILL_GRACE_MS } from '../exec/call-processes.ts';
import type { CommandRequest } from '../exec/command-spawn.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';
import { ToolError } from '../tool.ts';
import { BackgroundProcess, type AdoptedCommand } from './background-process.ts';
import { withoutEscapes } from '../../../protocol/processes.ts';
import { startOutputKeeper } from './keep-running.ts';
import { listeningPorts } from './listening-ports.ts';
import { DEFAULT_PROCESS_OUTPUT_LIMITS, type ProcessOutputLimits } from './process-output.ts';

// A session's background processes: started by exec {background} or {tty}, read, written to and
// stopped by the process tools, listed for the person. The session owns the table (the agent layer
// makes one per session and closes it with the session), so processes outlive the turn that
// started them and never the session. Each start and each end is recorded through `record` (the
// session's log), so a replayed session shows how each one ended.

export interface ProcessLimits {
  /** Processes that may run at once in one session. */
  maxRunning: number;
  output: ProcessOutputLimits;
}

export const DEFAULT_PROCESS_LIMITS: ProcessLimits = { maxRunning: 8, output: DEFAULT_PROCESS_OUTPUT_LIMITS };

/** The folder under the session's folder where processes' output is kept. */
export const PROCESS_OUTPUT_FOLDER = 'processes';

const LAST_LINE_CHARS = 200;

export interface ProcessTableOptions {
  /** Read at each start, so a change in settings applies to the next process. */
  limits?: () => ProcessLimits | Promise<ProcessLimits>;
  clock?: Clock;
  killGraceMs?: number;
}

export interface ProcessStartRequest {
  callId: string;
  sessionDir: string;
  request: CommandRequest;
  tty: boolean;
}

export class ProcessTable {
  private readonly options: ProcessTableOptions;
  private readonly processes = new Map<string, BackgroundProcess>();
  private readonly listeners = new Set<(process: BackgroundProcess) => void>();
  private record: ((info: ProcessInfo) => Promise<void> | void) | null = null;
  private next = 1;
  private closing: Promise<void> | null = null;

  constructor(options: ProcessTableOptions = {}) {
    this.options = options;
  }

  /** Where each start and end is recorded from now on (the session's log, once the session is open). */
  recordTo(record: (info: ProcessInfo) => Promise<void> | void): void {
    this.record = record;
  }

  /** Told of every start and end; returns the way to stop listening. */
  onChange(listener: (process: BackgroundProcess) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async start(start: ProcessStartRequest): Promise<BackgroundProcess> {
    return this.add(start, await this.room());
  }

  /**
   * The limits a new process starts under, once there is room for one; a ToolError saying what to
   * stop when there is none. What is started right after (`add`, in the same turn of the event
   * loop) takes that room.
   */
  async room(): Promise<ProcessLimits> {
    const limits = (await this.options.limits?.()) ?? DEFAULT_PROCESS_LIMITS;
    if (this.closing) throw new ToolError('The session is closing: no process can start in it any more.');
    const running = this.running();
    if (running.length >= limits.maxRunning) {
      throw new ToolError(
        `${running.length} processes already run in this session, the most it allows (the processes_max setting): ` +
          `stop one with process_stop first (${running.map((process) => `${process.id}: ${process.command}`).join('; ')}).`,
      );
    }
    return limits;
  }

  /** Starts a process (or takes over a running command: `adopt`) under limits `room()` gave. */
  add(start: ProcessStartRequest & { adopt?: AdoptedCommand }, limits: ProcessLimits): BackgroundProcess {
    const id = `p${this.next}`;
    this.next += 1;
    const process = new BackgroundProcess({
      id,
      callId: start.callId,
      request: start.request,
      tty: start.tty,
      outputBase: path.join(start.sessionDir, PROCESS_OUTPUT_FOLDER, id),
      limits: limits.output,
      clock: this.options.clock ?? systemClock,
      killGraceMs: this.options.killGraceMs ?? KILL_GRACE_MS,
      ...(start.adopt ? { adopt: start.adopt } : {}),
    });
    this.processes.set(id, process);
    void this.changed(process);
    process.onEnded(() => void this.changed(process));
    return process;
  }

  /**
   * A foreground command that may move here while it runs (exec registers each as it starts);
   * returns the way to take the offer back once it has ended.
   */
  offerMove(callId: string, move: () => Promise<BackgroundProcess>): () => void {
    this.movable.set(callId, move);
    return () => void (this.movable.get(callId) === move && this.movable.delete(callId));
  }

  /** Moves the foreground command of call `callId` here (the card's Keep running in the background). */
  async moveToBackground(callId: string): Promise<BackgroundProcess> {
    const move = this.movable.get(callId);
    if (!move) throw new ToolError('That command is not running in the foreground any more: nothing to move.');
    return move();
  }

  private readonly movable = new Map<string, () => Promise<BackgroundProcess>>();

  /** New ids go on after these (a reopened session's processes), so no id names two processes. */
  continueAfter(ids: readonly string[]): void {
    for (const id of ids) {
      const number = Number(/^p(\d+)$/.exec(id)?.[1] ?? 0);
      if (number >= this.next) this.next = number + 1;
    }
  }

  /** The process `id`; a ToolError the model can act on when there is none. */
  get(id: string): BackgroundProcess {
    const process = this.processes.get(id);
    if (process) return process;
    const known = [...this.processes.keys()];
    throw new ToolError(
      `There is no process ${id} in this session${known.length > 0 ? ` (it has ${known.join(', ')})` : ' (none was started)'}; process_list shows them.`,
    );
  }

  list(): BackgroundProcess[] {
    return [...this.processes.values()];
  }

  running(): BackgroundProcess[] {
    return this.list().filter((process) => process.running);
  }

  /** A process as the tools and the panel show it, with the ports it listens on now. */
  async info(process: BackgroundProcess): Promise<ProcessInfo> {
    const ports = await listeningPorts(process.pids());
    const left = process.leftBehind;
    const leftOutside = left ? left.endedOutsideGroup + left.survivors.length : 0;
    return {
      id: process.id,
      call_id: process.callId,
      command: process.command,
      tty: process.tty,
      pid: process.pid ?? null,
      state: process.state,
      exit_code: process.exitCode,
      signal: process.signal,
      started_at: process.startedAtIso,
      uptime_ms: process.uptimeMs(),
      output_bytes: process.output.bytes,
      output_lines: process.output.lines,
      ports,
      last_line: lastLine(process),
      ...(process.endReason ? { end_reason: process.endReason } : {}),
      ...(process.error ? { error: process.error } : {}),
      ...(left && leftOutside > 0
        ? { left_behind: { stopped: left.endedOutsideGroup, still_running: left.survivors.length } }
        : {}),
      ...(process.output.files.length > 0 ? { output_files: process.output.files } : {}),
      ...(process.outputAfter ? { output_after: process.outputAfter } : {}),
    };
  }

  /** Stops one process and everything it started; resolves once it has ended and is recorded. */
  async stop(id: string, reason: ProcessEndReason): Promise<BackgroundProcess> {
    const process = this.get(id);
    await process.stop(reason);
    return process;
  }

  /**
   * Leaves every running process that can go on without this app running after it ends (`aether
   * run --keep-processes`): its output goes on into a file of its own (keep-running.ts). A process
   * in a terminal cannot (the terminal closes with the app): it stays, for `close` to stop.
   */
  async leaveRunning(): Promise<{ left: ProcessInfo[]; cannot: BackgroundProcess[] }> {
    const limits = (await this.options.limits?.()) ?? DEFAULT_PROCESS_LIMITS;
    const left: BackgroundProcess[] = [];
    const cannot: BackgroundProcess[] = [];
    for (const process of this.running()) {
      const file = `${process.output.base}.after.log`;
      const kept = process.leaveRunning((pipes) => startOutputKeeper(pipes, file, limits.output.diskBytes));
      (kept ? left : cannot).push(process);
    }
    // Their records (with the ports they listen on now) reach the log before it closes.
    await Promise.all(left.map((process) => this.recorded.get(process)));
    return { left: await Promise.all(left.map((process) => this.info(process))), cannot };
  }

  /** Stops every running process (the session closes); no process starts after. */
  close(reason: ProcessEndReason = 'session_closed'): Promise<void> {
    this.closing ??= Promise.all(this.running().map((process) => process.stop(reason))).then(async () => {
      // The last records go to the log before it closes.
      await Promise.all(this.list().map((process) => this.recorded.get(process)));
    });
    return this.closing;
  }

  private readonly recorded = new Map<BackgroundProcess, Promise<void>>();

  private changed(process: BackgroundProcess): Promise<void> {
    for (const listener of this.listeners) listener(process);
    const previous = this.recorded.get(process) ?? Promise.resolve();
    const next = previous.then(async () => {
      const record = this.record;
      if (!record) return;
      try {
        await record(await this.info(process));
      } catch {
        // The log could not take it (closed, full disk): the process itself is not affected.
      }
    });
    this.recorded.set(process, next);
    return next;
  }
}

function lastLine(process: BackgroundProcess): string {
  const text = process.screen ? process.screen.text() : withoutEscapes(process.output.tail(1, 4096).text);
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const line = lines.at(-1)?.trimEnd() ?? '';
  return line.length > LAST_LINE_CHARS ? `${line.slice(0, LAST_LINE_CHARS - 1)}…` : line;
}
