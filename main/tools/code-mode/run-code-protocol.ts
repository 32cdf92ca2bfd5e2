// What the run_code host and its sandbox worker say to each other. The worker runs the program in
// QuickJS; every tool call crosses this boundary as a message and comes back as JSON text.

export interface RunCodeLimits {
  /**
   * Wall time of the whole run, loading the interpreter included, but not the time nested calls
   * wait for the person's approval.
   */
  wallMs: number;
  /** QuickJS heap. */
  memoryBytes: number;
  /** QuickJS stack; kept well under the worker thread's native stack. */
  stackBytes: number;
  /** Nested tool calls per run. */
  maxCalls: number;
  /** Captured console output, UTF-8 bytes. */
  logBytes: number;
}

export const DEFAULT_RUN_CODE_LIMITS: RunCodeLimits = {
  wallMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxCalls: 64,
  logBytes: 128 * 1024,
};

export type LogLevel = 'log' | 'info' | 'warn' | 'error';

export interface LogLine {
  level: LogLevel;
  text: string;
}

/** Which limit stopped a run; the message names it for the model and the person. */
export type LimitName = 'wall' | 'memory' | 'stack' | 'calls' | 'logs';

/** The worker's startup data. */
export interface SandboxStart {
  code: string;
  /** The tools the program may call, as `tools.<name>`. */
  toolNames: string[];
  limits: RunCodeLimits;
  /** The run's WallDeadline, shared with the host (read it with `deadlineReader`). */
  deadline: SharedArrayBuffer;
  /** Where the host writes replies to the program's calls (run-code-replies.ts). */
  replies: SharedArrayBuffer;
}

/** A worker started before its program: QuickJS is loaded for this heap, then a SandboxStart arrives. */
export interface WarmStart {
  warm: true;
  memoryBytes: number;
}

/** What a sandbox worker starts with: its first program or a warm start, and QuickJS compiled when the host has it. */
export type SandboxWorkerData = (SandboxStart | WarmStart) & { wasm?: object };

/** One nested call; ids are unique over the worker's life, so a late reply never meets a later program's call. */
export interface CallRequest {
  id: number;
  name: string;
  argsJson: string;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'call'; call: CallRequest }
  | { type: 'done'; logs: LogLine[]; output: string | null }
  | { type: 'failed'; logs: LogLine[]; message: string; limit?: LimitName };

export type CallReply =
  | { type: 'reply'; id: number; ok: true; json: string | null }
  | { type: 'reply'; id: number; ok: false; message: string };

/**
 * A reply to a nested call too large for the shared reply buffer, or the next program for a worker
 * whose last program ended well (a worker whose program failed or was stopped is terminated, never
 * given another).
 */
export type HostMessage = CallReply | { type: 'program'; start: SandboxStart };

export function limitMessage(limit: LimitName, limits: RunCodeLimits): string {
  switch (limit) {
    case 'wall':
      return `run_code stopped: the program ran past the wall-time limit of ${seconds(limits.wallMs)}. Do less per run, or split the work over several runs.`;
    case 'memory':
      return `run_code stopped: the program ran out of its heap limit of ${mebibytes(limits.memoryBytes)}. Keep less data in memory at once.`;
    case 'stack':
      return `run_code stopped: the program exceeded the stack limit of ${kibibytes(limits.stackBytes)} (recursion too deep).`;
    case 'calls':
      return `run_code stopped: the program made more than ${limits.maxCalls} nested tool calls, the limit per run. Split the work over several runs.`;
    case 'logs':
      return `run_code stopped: the program logged more than the ${kibibytes(limits.logBytes)} log limit. Log summaries rather than whole outputs.`;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

function kibibytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
