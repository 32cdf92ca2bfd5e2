import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../../protocol/errors.ts';
import { readablePage } from './readable-page.ts';
import type { ReaderMessage, ReaderRequest } from './readable-runner.ts';

// The worker that makes pages readable (readable-runner.ts starts it): one page at a time.

parentPort?.on('message', (request: ReaderRequest) => {
  let reply: ReaderMessage;
  try {
    reply = { type: 'done', page: readablePage(request) };
  } catch (error) {
    reply = { type: 'failed', message: errorMessage(error) };
  }
  parentPort?.postMessage(reply);
});
