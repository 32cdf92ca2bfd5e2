import { useEffect, useState } from 'react';
import { highlight, type HighlightedLines } from './highlight.ts';

// Highlighting for a component: plain text first, colours when ready. Results are kept by content
// (language and text) for the most recent blocks, so a card scrolled back into view, or remounted by
// the virtualised transcript, shows its colours at once instead of highlighting again.

const KEEP = 200;
const cache = new Map<string, HighlightedLines | null>();

const keyOf = (code: string, language: string) => `${language}\u0000${code}`;

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

export function useHighlight(code: string, language: string | null): HighlightedLines | null {
  const [state, setState] = useState<{ key: string; lines: HighlightedLines | null } | null>(null);
  const key = language ? keyOf(code, language) : null;
  const cached = key === null ? undefined : cache.get(key);
  useEffect(() => {
    if (!language || key === null || cache.has(key)) return;
    let live = true;
    void highlight(code, language).then((lines) => {
      remember(key, lines);
      if (live) setState({ key, lines });
    });
    return () => {
      live = false;
    };
  }, [code, language, key]);
  if (key === null) return null;
  if (cached !== undefined) return cached;
  return state?.key === key ? state.lines : null;
}
