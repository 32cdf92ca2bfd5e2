import type { Replacement } from '../main/tools/files/patch-edits.ts';

// What the patch tests share: a seeded generator, so a random case that fails always reproduces,
// and the patched text written the plain way, as the oracle the faster code is checked against.

/** A linear congruential generator from `seed`: numbers in [0, 1), the same sequence every time. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** `text` with each replacement's range replaced by its text (ranges in order, not overlapping). */
export function applyReplacements(text: string, replacements: readonly Replacement[]): string {
  let out = '';
  let cursor = 0;
  for (const { start, end, text: piece } of replacements) {
    out += text.slice(cursor, start) + piece;
    cursor = end;
  }
  return out + text.slice(cursor);
}
