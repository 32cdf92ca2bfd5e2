import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { focusMessageBox } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { findHits, stepHit } from './find-matches.ts';
import { clearFindHighlight, highlightFind } from './find-highlight.ts';

// Ctrl/Cmd+F: a find bar over the transcript. It searches the store (every row, on screen or not),
// scrolls the transcript to the hit and marks it; Enter / Shift+Enter step to the next / previous
// hit, Esc closes the bar and gives the focus back to where it was before.

let returnFocus: HTMLElement | null = null;

/** Ctrl/Cmd+F anywhere in the panel opens the bar (or focuses it again) instead of the browser's find. */
export function useFindShortcut(): void {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'f' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey)
        return;
      event.preventDefault();
      const active = document.activeElement;
      // Focus on nothing (the page itself) has nowhere to go back to: the message box gets it then.
      if (active instanceof HTMLElement && active !== document.body && !active.closest('[data-find-bar]'))
        returnFocus = active;
      usePanel.getState().openFind();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

function closeAndReturn(): void {
  usePanel.getState().closeFind();
  clearFindHighlight();
  const target = returnFocus;
  returnFocus = null;
  if (target?.isConnected) target.focus();
  else focusMessageBox();
}

/** Re-marks the hits whenever the transcript's rows change (scrolling mounts new ones). */
function useHighlight(query: string, currentKey: string | null): void {
  useEffect(() => {
    const root = document.querySelector('[data-testid="transcript"]');
    let frame: number | null = null;
    const paint = () => {
      frame = null;
      highlightFind(document.querySelector('[data-testid="transcript"]'), query, currentKey);
    };
    const schedule = () => {
      if (frame === null) frame = requestAnimationFrame(paint);
    };
    schedule();
    const observer = new MutationObserver(schedule);
    if (root) observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [query, currentKey]);
  useEffect(() => clearFindHighlight, []);
}

export function FindBar() {
  const open = usePanel((state) => state.findOpen);
  return open ? <OpenFindBar /> : null;
}

function OpenFindBar() {
  const query = usePanel((state) => state.findQuery);
  const setQuery = usePanel((state) => state.setFindQuery);
  const showRow = usePanel((state) => state.showFindRow);
  const focusRequest = usePanel((state) => state.findFocusRequest);
  const transcript = usePanel((state) => state.transcript);
  const currentKey = usePanel((state) => state.findRow?.key ?? null);
  const hits = useMemo(() => findHits(transcript, query), [transcript, query]);
  const [active, setActive] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useHighlight(query, currentKey);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusRequest]);

  // A new query starts at its first hit; new output keeps the current one in range.
  useEffect(() => setActive(null), [query]);
  const shown = active === null ? (hits.length > 0 ? 0 : null) : Math.min(active, hits.length - 1);
  const hit = shown === null || shown < 0 ? undefined : hits[shown];
  const hitKey = hit ? `${hit.item.kind}:${hit.item.id}` : null;
  const hitIndex = hit?.index ?? null;
  useEffect(() => {
    showRow(hitKey === null || hitIndex === null ? null : { index: hitIndex, key: hitKey });
  }, [hitKey, hitIndex, showRow, active]);

  const step = (direction: 1 | -1) => setActive(stepHit(shown, hits.length, direction));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    }
  };
  // Esc anywhere in the bar (its field or its buttons) closes it, and never stops the turn.
  const onBarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    closeAndReturn();
  };
  const status = query.trim() === '' ? '' : hits.length === 0 ? 'No matches' : `${(shown ?? 0) + 1} of ${hits.length}`;

  return (
    <div
      className="find-bar"
      role="search"
      aria-label="Find in transcript"
      data-find-bar=""
      data-testid="find-bar"
      onKeyDown={onBarKeyDown}
    >
      <input
        ref={input}
        type="search"
        className="find-input"
        data-testid="find-input"
        aria-label="Find in transcript"
        aria-describedby="find-status"
        placeholder="Find in transcript"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <span id="find-status" className="find-status" data-testid="find-status" aria-live="polite">
        {status}
      </span>
      <button
        type="button"
        className="icon-button"
        data-testid="find-prev"
        aria-label="Previous match (Shift+Enter)"
        title="Previous (Shift+Enter)"
        disabled={hits.length === 0}
        onClick={() => step(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="find-next"
        aria-label="Next match (Enter)"
        title="Next (Enter)"
        disabled={hits.length === 0}
        onClick={() => step(1)}
      >
        ↓
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="find-close"
        aria-label="Close find (Esc)"
        title="Close (Esc)"
        onClick={closeAndReturn}
      >
        ✕
      </button>
    </div>
  );
}
