import { highlight, type HighlightedLines } from './highlight.ts';
import type { HighlightReply, HighlightRequest, WarmRequest } from './highlight-messages.ts';

// Highlighting without blocking the page: requests go to one module worker (highlight-worker.ts),
// started on first use. Where there is no Worker (tests in jsdom) or the worker cannot start (its
// script refused or missing), highlighting runs in the page as before, so colours still arrive.

interface Pending extends Omit<HighlightRequest, 'id'> {
  resolve: (lines: HighlightedLines | null) => void;
}

/** undefined: not started yet; null: no worker, highlight in the page. */
let worker: Worker | null | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function inPage({ code, language, resolve }: Pending): void {
  void highlight(code, language).then(resolve);
}

function giveUpWorker(failed: Worker): void {
  failed.terminate();
  worker = null;
  const waiting = [...pending.values()];
  pending.clear();
  waiting.forEach(inPage);
}

function startWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  try {
    const started = new Worker(new URL('./highlight-worker.ts', import.meta.url), {
      type: 'module',
      name: 'highlight',
    });
    started.addEventListener('message', (event: MessageEvent<HighlightReply>) => {
      const request = pending.get(event.data.id);
      pending.delete(event.data.id);
      request?.resolve(event.data.lines);
    });
    started.addEventListener('error', () => giveUpWorker(started));
    worker = started;
  } catch {
    worker = null;
  }
  return worker;
}

/** Tokens for `code`, worked out off the page's thread when a worker can run; null for plain text. */
export function highlightOffPage(code: string, language: string): Promise<HighlightedLines | null> {
  return new Promise((resolve) => {
    const request: Pending = { code, language, resolve };
    const target = startWorker();
    if (!target) return inPage(request);
    const id = nextId++;
    pending.set(id, request);
    const message: HighlightRequest = { id, code, language };
    target.postMessage(message);
  });
}

/**
 * Starts the worker and has it load the highlighter while nothing else is happening, so the first
 * card with code gets its colours without waiting for that. Nothing where there is no worker.
 */
export function warmHighlighter(): void {
  if (typeof Worker === 'undefined') return;
  const target = startWorker();
  const message: WarmRequest = { warm: true };
  target?.postMessage(message);
}
