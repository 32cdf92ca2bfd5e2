import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SearchFilesResult } from '../../../protocol/tools.ts';
import { ToolError } from '../tool.ts';

// search_files runs in worker threads, so no pattern can block the main process: a regular
// expression that backtracks catastrophically (`(a+)+$` on a line of a's) holds only its worker.
// Each worker's event loop beats a shared counter; reading files yields to that loop between
// chunks, so only matching a pattern can keep it from beating. When the counter stands still for
// `stallLimitMs`, the pattern is stuck: the worker is terminated and the model is told the limit,
// the file and what to do. Stop terminates the worker at once, mid-match included. The workers are
// a small pool (SEARCH_THREADS): a worker that finished a search takes the next one, and searches
// beyond the pool wait for a worker, so 100 parallel calls start two threads, not 100 (a thread
// costs ≈100 ms and tens of MiB to start, more than a search of a few hundred small files).
//
// Packaging note: the worker is a separate entry point (search-worker.ts); the bundle emits it as
// its own file next to this one.

/** How long matching may keep a worker busy without a break before the search is stopped. */
export const DEFAULT_STALL_LIMIT_MS = 2000;
/** The worker's heartbeat, and how often the host looks at it. */
export const BEAT_MS = 100;
const WATCH_MS = 250;
/**
 * The most search workers alive at once: at least two, so one pattern stuck until its matching
 * limit never holds every search, and no more than four or the machine's cores.
 */
export const SEARCH_THREADS = Math.max(2, Math.min(4, availableParallelism()));

const WORKER_URL = new URL('./search-worker.ts', import.meta.url);

/** One search: everything already confined and validated by the tool. */
export interface SearchRequest {
  pattern: string;
  flags: string;
  /** Real path of the folder or file searched. */
  real: string;
  /** How that path is shown (workspace-relative); prefixes the match paths. */
  shown: string;
  isDirectory: boolean;
  glob: string | undefined;
  /** The workspace root, real path (for .gitignore files above `real`). */
  workspace: string;
}

/** The worker's startup data: an Int32 counter its event loop advances every BEAT_MS. */
export interface SearchWorkerData {
  heartbeat: SharedArrayBuffer;
}

export type SearchHostMessage = { type: 'search'; request: SearchRequest };

export type SearchWorkerMessage =
  | { type: 'ready' }
  | { type: 'file'; name: string }
  | { type: 'done'; result: SearchFilesResult }
  | { type: 'failed'; message: string };

export interface SearchRunOptions {
  signal: AbortSignal;
  stallLimitMs?: number;
}

interface SearchThread {
  worker: Worker;
  beats: Int32Array;
  /** The worker posted `ready`: its heartbeat runs. */
  ready: boolean;
}

/** Every worker alive, busy or idle. */
const alive = new Set<SearchThread>();
const idle: SearchThread[] = [];
/** Searches waiting for a worker, first come first served. */
const waiting: ((thread: SearchThread) => void)[] = [];
let started = 0;

/** How many search workers this process has started, for the tests of the pool's bound. */
export function searchWorkersStarted(): number {
  return started;
}

function startThread(): SearchThread {
  const heartbeat = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_URL, { workerData: { heartbeat } satisfies SearchWorkerData, env: {} });
  started += 1;
  const thread: SearchThread = { worker, beats: new Int32Array(heartbeat), ready: false };
  alive.add(thread);
  // A worker that fails or exits leaves the pool (a busy one's search handles the failure); its
  // place goes to the next search waiting.
  const forget = (): void => {
    if (!alive.delete(thread)) return;
    const at = idle.indexOf(thread);
    if (at !== -1) idle.splice(at, 1);
    const next = waiting.shift();
    if (next) next(startThread());
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  return thread;
}

/** An idle worker, a new one while the pool has room, else the first to finish. */
function acquire(signal: AbortSignal): Promise<SearchThread> {
  const free = idle.pop() ?? (alive.size < SEARCH_THREADS ? startThread() : undefined);
  if (free) return Promise.resolve(free);
  return new Promise((resolve, reject) => {
    const take = (thread: SearchThread): void => {
      signal.removeEventListener('abort', onAbort);
      resolve(thread);
    };
    const onAbort = (): void => {
      const at = waiting.indexOf(take);
      if (at !== -1) waiting.splice(at, 1);
      reject(abortError());
    };
    waiting.push(take);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A worker whose search ended well takes the next search waiting, or waits unreferenced. */
function release(thread: SearchThread): void {
  if (!alive.has(thread)) return;
  const next = waiting.shift();
  if (next) return next(thread);
  thread.worker.unref();
  idle.push(thread);
}

/** A worker that cannot be trusted with another search (stopped, stuck, failed) ends; its place is free. */
function discard(thread: SearchThread): void {
  void thread.worker.terminate();
}

export async function runSearch(request: SearchRequest, options: SearchRunOptions): Promise<SearchFilesResult> {
  const { signal } = options;
  const stallLimitMs = options.stallLimitMs ?? DEFAULT_STALL_LIMIT_MS;
  if (signal.aborted) throw abortError();
  const thread = await acquire(signal);
  if (signal.aborted) {
    release(thread);
    throw abortError();
  }
  const { worker, beats } = thread;
  worker.ref();

  return new Promise<SearchFilesResult>((resolve, reject) => {
    let over = false;
    let currentFile: string | null = null;
    let watch: NodeJS.Timeout | undefined;

    const end = (
      outcome: { ok: true; value: SearchFilesResult } | { ok: false; error: Error },
      reuse = false,
    ): void => {
      if (over) return;
      over = true;
      clearInterval(watch);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) release(thread);
      else discard(thread);
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    };
    const onAbort = (): void => end({ ok: false, error: abortError() });

    /** Counts only time this thread saw: a late tick of its own says nothing about the worker. */
    const startWatching = (): void => {
      let lastBeat = Atomics.load(beats, 0);
      let lastTick = Date.now();
      let still = 0;
      watch = setInterval(() => {
        const now = Date.now();
        const beat = Atomics.load(beats, 0);
        const late = now - lastTick > 2 * WATCH_MS;
        still = beat !== lastBeat || late ? 0 : still + (now - lastTick);
        lastBeat = beat;
        lastTick = now;
        if (still >= stallLimitMs)
          end({ ok: false, error: new ToolError(stallMessage(request, currentFile, stallLimitMs)) });
      }, WATCH_MS);
    };

    const onMessage = (message: SearchWorkerMessage): void => {
      if (message.type === 'ready') {
        thread.ready = true;
        startWatching();
      } else if (message.type === 'file') currentFile = message.name;
      else if (message.type === 'done') end({ ok: true, value: message.result }, true);
      else end({ ok: false, error: new ToolError(message.message) }, true);
    };
    const onError = (error: Error): void =>
      end({
        ok: false,
        error: new ToolError(`search_files failed: the search stopped unexpectedly: ${error.message}`),
      });
    const onExit = (code: number): void =>
      end({
        ok: false,
        error: new ToolError(`search_files failed: the search exited (code ${code}) before it finished.`),
      });

    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    if (thread.ready) startWatching();
    worker.postMessage({ type: 'search', request } satisfies SearchHostMessage);
  });
}

function stallMessage(request: SearchRequest, file: string | null, limitMs: number): string {
  const where = file ? ` on ${file}` : '';
  return (
    `search_files stopped: matching /${request.pattern}/ kept the search busy for more than ${limitMs / 1000} s${where} ` +
    '(the limit for one stretch of matching), so the pattern probably backtracks catastrophically. ' +
    'Avoid nested repetition such as (a+)+ or (.*)*, anchor the pattern, or search for a plainer piece of the text.'
  );
}

function abortError(): Error {
  return new DOMException('search_files was cancelled.', 'AbortError');
}
