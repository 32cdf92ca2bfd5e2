import { createContext } from 'react';

export interface TranscriptView {
  /** The transcript's scrolling element; null until it has mounted. */
  scroller: HTMLElement | null;
  /** Stops the following of the end: what the person opened stays in view as it grows. */
  stopFollowing: () => void;
}

/**
 * The transcript's scroller, for rows that act on it: a large read group's own list scrolls with it
 * (drawing only the cards near the view), and opening a group keeps the view on the group.
 */
export const TranscriptScroller = createContext<TranscriptView>({ scroller: null, stopFollowing: () => undefined });
