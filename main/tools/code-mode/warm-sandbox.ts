import { Worker } from 'node:worker_threads';
import { WORKER_HEAP_MB } from './run-code-memory.ts';
import type { HostMessage, SandboxStart, SandboxWorkerData, WarmStart } from './run-code-protocol.ts';
import { compiledQuickJS, compiledQuickJSNow } from './run-code-wasm.ts';

// One sandbox worker kept ready, QuickJS already loaded, so a program does not wait for a thread to
// start and a WebAssembly module to compile. The ready one is handed the program; when the program
// ends well the same worker is kept ready again (its next program gets a new interpreter, runtime
// and context: run-code-worker.ts), and when it fails or is stopped the worker is terminated and a
// new one started. It never keeps the process alive while it waits, and one that dies while waiting
// is simply not used.

const WORKER_URL = new URL('./run-code-worker.ts', import.meta.url);

interface Ready {
  worker: Worker;
  memoryBytes: number;
  alive: boolean;
  /** Resolves once QuickJS is loaded in it (or it died). */
  loaded: Promise<void>;
}

let ready: Ready | null = null;

/** A new worker is given QuickJS compiled (once compiled here: the first workers compile it themselves). */
function options(start: SandboxStart | WarmStart) {
  const wasm = compiledQuickJSNow();
  if (!wasm) void compiledQuickJS();
  const workerData: SandboxWorkerData = { ...start, ...(wasm ? { wasm } : {}) };
  return { workerData, env: {}, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
}

/** Starts a worker for the next program with this heap, unless one is ready already. */
export function warmSandbox(memoryBytes: number): void {
  if (ready?.alive && ready.memoryBytes === memoryBytes) return;
  const worker = new Worker(WORKER_URL, options({ warm: true, memoryBytes }));
  keepReady(worker, memoryBytes);
}

/**
 * A worker whose program ended well waits for the next one (it replaces any other kept ready). It
 * is making the next program's interpreter meanwhile and says `ready` once that is done; a program
 * given to it before then waits for the interpreter.
 */
export function releaseSandbox(worker: Worker, memoryBytes: number): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  keepReady(worker, memoryBytes);
}

function keepReady(worker: Worker, memoryBytes: number): void {
  if (ready && ready.worker !== worker) void ready.worker.terminate();
  worker.unref();
  let loaded = (): void => undefined;
  const entry: Ready = {
    worker,
    memoryBytes,
    alive: true,
    loaded: new Promise((resolve) => (loaded = resolve)),
  };
  const gone = () => {
    entry.alive = false;
    if (ready === entry) ready = null;
    loaded();
  };
  // Its first message is `ready` (the next is only sent once it has been given a program).
  worker.once('message', () => loaded());
  worker.once('error', gone);
  worker.once('exit', gone);
  ready = entry;
}

/** A worker running `start`: the ready one when its heap fits, else a new one. Another is warmed behind it. */
export function sandboxWorker(start: SandboxStart): Worker {
  const taken = ready;
  ready = null;
  let worker: Worker;
  if (taken?.alive && taken.memoryBytes === start.limits.memoryBytes) {
    taken.worker.removeAllListeners('error');
    taken.worker.removeAllListeners('exit');
    taken.worker.removeAllListeners('message');
    taken.worker.ref();
    taken.worker.postMessage({ type: 'program', start } satisfies HostMessage);
    worker = taken.worker;
  } else {
    if (taken) void taken.worker.terminate();
    worker = new Worker(WORKER_URL, options(start));
  }
  // When the program fails the next worker starts once this one is gone, so it does not compete with
  // it for the CPU (releaseSandbox takes these listeners off a worker whose program ended well).
  worker.once('exit', () => warmSandbox(start.limits.memoryBytes));
  return worker;
}

/** Resolves when the worker kept ready has its next interpreter made (at once when none is being kept). */
export function sandboxReady(): Promise<void> {
  return ready?.loaded ?? Promise.resolve();
}

/** Ends the ready worker (tests, and a host shutting down). */
export async function coolSandbox(): Promise<void> {
  const taken = ready;
  ready = null;
  if (taken) await taken.worker.terminate();
}
