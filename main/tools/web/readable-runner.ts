import { Worker } from 'node:worker_threads';
import { ToolError } from '../tool.ts';
import type { PageSource, ReadablePage } from './readable-page.ts';

// Pages are made readable in a worker thread: parsing a large page with jsdom and scoring it with
// Readability can take seconds, which would freeze the panel if it ran in the main process. Stop
// terminates the worker at once, and so does the time limit. A worker that finished a page waits
// a minute for the next one (loading jsdom costs more than most pages), without keeping the
// process alive.
//
// Packaging note: the worker is a separate entry point (readable-worker.ts); the bundle emits it as
// its own file next to this one.

export const READABLE_TIME_LIMIT_MS = 60_000;
const IDLE_MS = 60_000;

const WORKER_URL = new URL('./readable-worker.ts', import.meta.url);

export type ReaderRequest = PageSource;
export type ReaderMessage = { type: 'done'; page: ReadablePage } | { type: 'failed'; message: string };

let idle: { worker: Worker; timer: NodeJS.Timeout } | null = null;

function takeWorker(): Worker {
  if (idle) {
    const { worker, timer } = idle;
    idle = null;
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  return new Worker(WORKER_URL, { env: {} });
}

function keepIdle(worker: Worker): void {
  if (idle) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(() => {
    if (idle?.worker !== worker) return;
    idle = null;
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle = { worker, timer };
}

export interface ReadableOptions {
  signal: AbortSignal;
  timeLimitMs?: number;
}

/** The page as Markdown, made in a worker thread. */
export function makeReadable(source: PageSource, options: ReadableOptions): Promise<ReadablePage> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const limitMs = options.timeLimitMs ?? READABLE_TIME_LIMIT_MS;
  const worker = takeWorker();
  return new Promise((resolve, reject) => {
    const finish = (reuse: boolean, end: () => void): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) keepIdle(worker);
      else void worker.terminate();
      end();
    };
    const onMessage = (message: ReaderMessage): void => {
      if (message.type === 'done') finish(true, () => resolve(message.page));
      else finish(true, () => reject(new ToolError(`The page could not be read as HTML: ${message.message}`)));
    };
    const onError = (error: Error): void =>
      finish(false, () => reject(new ToolError(`The page could not be read as HTML: ${error.message}`)));
    const onExit = (): void =>
      finish(false, () => reject(new ToolError('The page reader stopped before it finished the page.')));
    const onAbort = (): void => finish(false, () => reject(signal.reason as Error));
    const timer = setTimeout(
      () =>
        finish(false, () =>
          reject(
            new ToolError(
              `Making the page readable took more than ${limitMs / 1000} s and was stopped; the page is too large or too complex to read this way.`,
            ),
          ),
        ),
      limitMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(source satisfies ReaderRequest);
  });
}
