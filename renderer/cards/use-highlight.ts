import { useEffect, useMemo, useState } from 'react';
import type { HighlightedLines } from './highlight.ts';
import { highlightOffPage } from './highlight-client.ts';

// Highlighting for a component: plain text first, colours when ready (worked out in a worker, see
// highlight-client.ts). Results are kept by a hash of their content (language and text) for the most
// recent blocks, so a card scrolled back into view, or remounted by the virtualised transcript,
// shows its colours at once instead of highlighting again. Cards of the same content share one request,
// and a request whose cards have all left the page is cancelled.

const KEEP = 200;
const cache = new Map<string, HighlightedLines | null>();

/** A 53-bit hash of the text (cyrb53): the cache keeps this, not a copy of every highlighted file. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const keyOf = (code: string, language: string) => `${language}:${code.length}:${hash(code)}`;

function remember(key: string, lines: HighlightedLines | null): void {
  cache.delete(key);
  cache.set(key, lines);
  if (cache.size > KEEP) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
}

/** Tokens already highlighted for this content, without waiting; undefined when not yet. */
export function cachedHighlight(code: string, language: string): HighlightedLines | null | undefined {
  return cache.get(keyOf(code, language));
}

interface InFlight {
  promise: Promise<HighlightedLines | null>;
  users: number;
  controller: AbortController;
  /** Asked only ahead of its card so far; `hurry` once a card asks. */
  ahead: boolean;
  hurry: () => void;
}

/**
 * Requests under way, by key: cards showing the same content (a group of reads of one file, a card
 * drawn again) share one, and it is cancelled when the last of them leaves the page before its turn.
 */
const inFlight = new Map<string, InFlight>();

function request(
  key: string,
  code: string,
  language: string,
  ahead = false,
): { promise: InFlight['promise']; release: () => void } {
  let entry = inFlight.get(key);
  if (!entry) {
    const controller = new AbortController();
    const highlight = highlightOffPage(code, language, { signal: controller.signal, ahead });
    const promise = highlight.promise.then((lines) => {
      if (controller.signal.aborted) return null;
      remember(key, lines);
      if (inFlight.get(key) === started) inFlight.delete(key);
      return lines;
    });
    const started: InFlight = { promise, users: 0, controller, ahead, hurry: highlight.hurry };
    entry = started;
    inFlight.set(key, started);
  } else if (entry.ahead && !ahead) {
    entry.ahead = false;
    entry.hurry();
  }
  const shared = entry;
  shared.users += 1;
  let released = false;
  return {
    promise: shared.promise,
    release: () => {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0 || inFlight.get(key) !== shared) return;
      inFlight.delete(key);
      shared.controller.abort();
    },
  };
}

/** How many highlight requests are under way (for tests). */
export function highlightsInFlight(): number {
  return inFlight.size;
}

/**
 * Highlights `code` ahead of the card that will show it, into the cache; what it returns gives the
 * request up (cancelled if no card has asked for it meanwhile and it has not started).
 */
export function prefetchHighlight(code: string, language: string): () => void {
  const key = keyOf(code, language);
  if (cache.has(key)) return () => undefined;
  return request(key, code, language, true).release;
}

export function useHighlight(code: string, language: string | null): HighlightedLines | null {
  const [state, setState] = useState<{ key: string; lines: HighlightedLines | null } | null>(null);
  const key = useMemo(() => (language ? keyOf(code, language) : null), [code, language]);
  const cached = key === null ? undefined : cache.get(key);
  useEffect(() => {
    if (!language || key === null || cache.has(key)) return;
    let live = true;
    const { promise, release } = request(key, code, language);
    void promise.then((lines) => {
      if (live && cache.has(key)) setState({ key, lines });
    });
    return () => {
      live = false;
      release();
    };
  }, [code, language, key]);
  if (key === null) return null;
  if (cached !== undefined) return cached;
  return state?.key === key ? state.lines : null;
}
