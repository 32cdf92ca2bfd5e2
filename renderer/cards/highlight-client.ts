import { highlight, type HighlightedLines } from './highlight.ts';
import type {
  CancelRequest,
  HighlightReply,
  HighlightRequest,
  HurryRequest,
  WarmRequest,
} from './highlight-messages.ts';

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

/** A highlight under way: its tokens, and the way to say its card is drawn now. */
export interface OffPageHighlight {
  promise: Promise<HighlightedLines | null>;
  /** A request made `ahead` runs with those of drawn cards from now on. */
  hurry: () => void;
}

/**
 * Tokens for `code`, worked out off the page's thread when a worker can run; null for plain text.
 * Aborting before the worker has started on it takes the request off its list (null at once).
 * `ahead`: for a card not drawn yet, after the requests of the cards drawn.
 */
export function highlightOffPage(
  code: string,
  language: string,
  { signal, ahead = false }: { signal?: AbortSignal; ahead?: boolean } = {},
): OffPageHighlight {
  let hurry = () => undefined as void;
  const promise = new Promise<HighlightedLines | null>((resolve) => {
    const request: Pending = { code, language, resolve };
    const target = startWorker();
    if (!target) return inPage(request);
    const id = nextId++;
    pending.set(id, request);
    const message: HighlightRequest = ahead ? { id, code, language, ahead } : { id, code, language };
    target.postMessage(message);
    if (ahead)
      hurry = () => {
        if (!pending.has(id)) return;
        const hurried: HurryRequest = { hurry: id };
        worker?.postMessage(hurried);
      };
    signal?.addEventListener(
      'abort',
      () => {
        if (!pending.delete(id)) return;
        const cancel: CancelRequest = { cancel: id };
        worker?.postMessage(cancel);
        resolve(null);
      },
      { once: true },
    );
  });
  return { promise, hurry: () => hurry() };
}

const warmed = new Set<string>();

/**
 * Starts the worker and has it load the highlighter while nothing else is happening, with the
 * languages given (each asked for once), so the first card with code gets its colours without
 * waiting for that. Nothing where there is no worker.
 */
export function warmHighlighter(languages: readonly string[] = []): void {
  if (typeof Worker === 'undefined') return;
  const fresh = languages.filter((language) => !warmed.has(language));
  fresh.forEach((language) => warmed.add(language));
  if (languages.length > 0 && fresh.length === 0) return;
  const target = startWorker();
  const message: WarmRequest = { warm: true, languages: fresh };
  target?.postMessage(message);
}
