import { parentPort } from 'node:worker_threads';
import { readPart, SessionReadError } from './replay-part.ts';
import type { ReaderReply, ReaderRequest } from './session-reader.ts';

// The reader thread: reads the part of a session file it is asked for, the way the host reads its
// own part (replay-part.ts), and sends it back; then waits for the next.

const port = parentPort;
if (!port) throw new Error('session-reader-worker.ts runs as a worker thread.');

port.on('message', (request: ReaderRequest) => {
  readPart(request.file, request.range).then(
    ({ part }) => port.postMessage({ id: request.id, part } satisfies ReaderReply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
        notASession: error instanceof SessionReadError,
      } satisfies ReaderReply),
  );
});
port.postMessage({ ready: true } satisfies ReaderReply);
