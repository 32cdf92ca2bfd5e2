// Where the panel starts to speak of the context's size (renderer/store/meter.ts): ten points of the
// window below the compaction threshold, or from three quarters of it with automatic compaction
// off. Below that line no figure changes what the panel says, so the main process may count by
// length there (main/agent/context-count.ts).

/** Within this many points below the threshold, compaction is near. */
export const SOON_POINTS = 10;
/** With automatic compaction off, the line appears from this share on, in percent. */
export const FULL_PERCENT = 75;

/** The share of the window from which the panel speaks of the context, for a threshold (a share; null: off). */
export function outlookShare(threshold: number | null): number {
  return threshold === null ? FULL_PERCENT / 100 : Math.max(0, threshold - SOON_POINTS / 100);
}
