import { useEffect, useMemo, useRef } from 'react';
import type { ToolCallView } from '../store/transcript-types.ts';
import { cardViewFor } from './registry.ts';
import { prefetchHighlight } from './use-highlight.ts';

// A read group's cards are drawn only near the view (ReadGroupCard.tsx); the code of the cards the
// person reaches next — the first ones of a folded group, those just past the drawn ones of an open
// group — is highlighted ahead in the worker, so each card shows its colours from its first frame.

/** Cards coloured ahead past the last one drawn (one before the first is coloured too). */
export const COLOURED_AHEAD = 3;

/** Runs `work` when the page is idle (or soon, where it cannot tell); the returned function cancels it. */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 200);
  return () => clearTimeout(timer);
}

export interface ColoursAhead {
  /** The cards `first`…`last` are drawn (`last` < `first`: none is, the group is folded). */
  drawn: (first: number, last: number) => void;
}

/** The places to colour ahead, nearest first: after the last drawn, then the one before the first. */
export function placesAhead(first: number, last: number, count: number): number[] {
  const places: number[] = [];
  const from = Math.max(last + 1, 0);
  for (let place = from; place < Math.min(count, from + COLOURED_AHEAD); place += 1) places.push(place);
  if (first - 1 >= 0 && first - 1 < count && last >= first) places.push(first - 1);
  return places;
}

/**
 * Keeps the highlights of the cards around the drawn ones asked for; those left behind are given
 * up (taken off the highlighter's list if they have not started), and all of them when the group goes.
 */
export function useColoursAhead(calls: readonly ToolCallView[]): ColoursAhead {
  const latest = useRef(calls);
  latest.current = calls;
  const ahead = useMemo(() => {
    /** Requests held, by call id. */
    const held = new Map<string, () => void>();
    let range = { first: 0, last: -1 };
    let pending: (() => void) | null = null;
    const update = () => {
      pending = null;
      const list = latest.current;
      const wanted = new Set<string>();
      for (const place of placesAhead(range.first, range.last, list.length)) {
        const call = list[place];
        if (!call) continue;
        wanted.add(call.call_id);
        if (held.has(call.call_id)) continue;
        const code = cardViewFor(call).codeToColour?.(call);
        held.set(call.call_id, code ? prefetchHighlight(code.code, code.language) : () => undefined);
      }
      for (const [id, release] of held)
        if (!wanted.has(id)) {
          release();
          held.delete(id);
        }
    };
    return {
      drawn: (first: number, last: number) => {
        range = { first, last };
        // A folded group asks at once, so the worker (idle while the page settles) starts on the
        // language's patterns; an open one asks between frames, as the person moves.
        if (last < first) {
          pending?.();
          pending = null;
          update();
        } else pending ??= whenIdle(update);
      },
      stop: () => {
        pending?.();
        pending = null;
        for (const release of held.values()) release();
        held.clear();
      },
    };
  }, []);
  useEffect(() => ahead.stop, [ahead]);
  return ahead;
}
