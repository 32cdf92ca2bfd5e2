import { parentPort, workerData } from 'node:worker_threads';
import path from 'node:path';
import { errorMessage } from '../../../protocol/errors.ts';
import type { SearchFilesResult, SearchMatch } from '../../../protocol/tools.ts';
import {
  BEAT_MS,
  type SearchHostMessage,
  type SearchRequest,
  type SearchWorkerData,
  type SearchWorkerMessage,
} from './search-runner.ts';
import { candidateFiles, MAX_MATCHES, searchFile, singleFile } from './search-files.ts';

// The search_files worker (search-runner.ts starts, reuses and watches it): one search at a time.
// The event loop beats the shared counter while it is free; a pattern stuck in matching stops the
// beat, and the host terminates this thread. Cancellation is the host terminating it too.

const port = parentPort;
if (!port) throw new Error('search-worker.ts runs only as a worker thread.');

const beats = new Int32Array((workerData as SearchWorkerData).heartbeat);
setInterval(() => Atomics.add(beats, 0, 1), BEAT_MS);

function post(message: SearchWorkerMessage): void {
  port!.postMessage(message);
}

port.on('message', (message: SearchHostMessage) => {
  search(message.request).then(
    (result) => post({ type: 'done', result }),
    (error: unknown) =>
      post({
        type: 'failed',
        message: `search_files failed: ${errorMessage(error)}`,
      }),
  );
});
post({ type: 'ready' });

async function search(request: SearchRequest): Promise<SearchFilesResult> {
  // Valid: the tool compiled it before sending it here.
  const regex = new RegExp(request.pattern, request.flags);
  // Cancelling is terminating this thread, so the walk and the reads never see an abort.
  const signal = new AbortController().signal;
  const matches: SearchMatch[] = [];
  let filesSearched = 0;
  let truncated = false;
  const base = request.shown === '.' ? '' : `${request.shown}/`;
  const files = request.isDirectory
    ? candidateFiles(request.real, request.glob, request.workspace, signal)
    : singleFile(request.real, path.basename(request.real));
  for await (const file of files) {
    const name = request.isDirectory ? `${base}${file.relative}` : request.shown;
    post({ type: 'file', name });
    const outcome = await searchFile(file.absolute, regex, MAX_MATCHES - matches.length, signal);
    if (outcome === null) continue;
    filesSearched += 1;
    for (const hit of outcome.hits) matches.push({ path: name, line: hit.line, text: hit.text });
    if (outcome.more) {
      truncated = true;
      break;
    }
  }
  return { pattern: request.pattern, matches, files_searched: filesSearched, truncated };
}
