import { debuglog } from 'node:util';
import { Worker } from 'node:worker_threads';
import { SessionReadError, type PartRange, type ReplayPart } from './replay-part.ts';

// A thread that reads the older half of a long session file while the host reads the newer half,
// so opening it takes about half the time on two cores. The host starts it as it starts (a thread
// takes longer to start than the part it saves), and it waits, idle and not holding the process
// open, for the next session opened. A read finds no thread ready (still starting, busy with
// another session, or gone after a failure) and is read whole in the host, as without it.

export interface ReaderRequest {
  id: number;
  file: string;
  range: PartRange;
}

export type ReaderReply =
  { ready: true } | { id: number; part: ReplayPart } | { id: number; error: string; notASession: boolean };

const WORKER_URL = new URL('./session-reader-worker.ts', import.meta.url);
const debug = debuglog('aether');

interface Reader {
  worker: Worker;
  ready: Promise<boolean>;
  isReady: boolean;
  busy: { id: number; settle: (reply: ReaderReply | Error) => void } | null;
}

let reader: Reader | null = null;
/** A host asked for a thread: one that failed is started again at the next read. */
let wanted = false;
let nextId = 0;
/** Parts read by a thread so far (NODE_DEBUG=aether says so too). */
let partsRead = 0;

export function sessionReaderParts(): number {
  return partsRead;
}

/** Starts the reader thread if none runs; resolves to whether it is ready for a read. */
export function warmSessionReader(): Promise<boolean> {
  wanted = true;
  if (reader) return reader.ready;
  const worker = new Worker(WORKER_URL, { env: {} });
  worker.unref();
  let ready: (value: boolean) => void = () => undefined;
  const started: Reader = { worker, ready: new Promise((resolve) => (ready = resolve)), isReady: false, busy: null };
  reader = started;
  const gone = (error: Error) => {
    if (reader === started) reader = null;
    ready(false);
    started.busy?.settle(error);
    started.busy = null;
  };
  worker.on('message', (reply: ReaderReply) => {
    if ('ready' in reply) {
      started.isReady = true;
      ready(true);
    } else if (started.busy?.id === reply.id) {
      const { settle } = started.busy;
      started.busy = null;
      worker.unref();
      settle(reply);
    }
  });
  worker.on('error', gone);
  worker.on('exit', (code) => gone(new Error(`The session reader thread stopped (exit code ${code}).`)));
  return started.ready;
}

/**
 * The part `range` of `file` read by the reader thread, or null when no thread is ready for it
 * (the caller reads it itself). A thread that fails rejects, and is started again for the next.
 */
export function readPartInThread(file: string, range: PartRange): Promise<ReplayPart> | null {
  const current = reader;
  if (!current && wanted) void warmSessionReader();
  if (!current?.isReady || current.busy) return null;
  const id = (nextId += 1);
  return new Promise<ReplayPart>((resolve, reject) => {
    current.busy = {
      id,
      settle: (reply) => {
        if (reply instanceof Error) reject(reply);
        else if ('part' in reply) {
          partsRead += 1;
          debug('read %s up to byte %d in the reader thread', file, range.end ?? -1);
          resolve(reply.part);
        } else if ('error' in reply)
          reject(reply.notASession ? new SessionReadError(reply.error) : new Error(reply.error));
      },
    };
    // Held open while it reads: the answer must arrive even when nothing else keeps the process up.
    current.worker.ref();
    current.worker.postMessage({ id, file, range } satisfies ReaderRequest);
  });
}

/** Stops the reader thread (a host that closes, a test). */
export async function stopSessionReader(): Promise<void> {
  const current = reader;
  reader = null;
  wanted = false;
  await current?.worker.terminate();
}
