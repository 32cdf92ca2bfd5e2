import { describe, expect, it } from 'vitest';
import type { Replacement } from './patch-edits.ts';
import { PatchedText } from './patched-text.ts';
import { applyReplacements, seeded } from '../../../test/replacements.ts';

// PatchedText must read exactly as the patched string would, anywhere: random texts and
// replacements (empty ones, deletions, insertions, replacements side by side) from a fixed seed.

describe('PatchedText', () => {
  it('reads like the patched string: length, every slice and every character', () => {
    const next = seeded(42);
    const pieces = ['', 'Z', 'new\n', 'é😀', 'longer replacement text'];
    for (let round = 0; round < 200; round += 1) {
      const text = 'abcdefghij\n'.repeat(1 + Math.floor(next() * 5));
      const replacements: Replacement[] = [];
      for (let cursor = Math.floor(next() * 4); cursor <= text.length;) {
        const end = Math.min(text.length, cursor + Math.floor(next() * 4));
        replacements.push({ start: cursor, end, text: pieces[Math.floor(next() * pieces.length)] ?? '', edit: 0 });
        cursor = end + Math.floor(next() * 6);
      }
      const expected = applyReplacements(text, replacements);
      const reader = new PatchedText(text, replacements);
      expect(reader.length, `round ${round}`).toBe(expected.length);
      const wrong: string[] = [];
      for (let at = -1; at <= expected.length + 1; at += 1)
        if (!Object.is(reader.charCodeAt(at), expected.charCodeAt(at))) wrong.push(`charCodeAt(${at})`);
      // Offsets from 0, as a diff reads them (a negative one is not counted from the end).
      for (let start = 0; start <= expected.length + 1; start += 1)
        for (let end = Math.max(0, start - 1); end <= expected.length + 1; end += 1 + Math.floor(next() * 8))
          if (reader.slice(start, end) !== expected.slice(start, end)) wrong.push(`slice(${start}, ${end})`);
      expect(wrong, `round ${round}`).toEqual([]);
    }
  });
});
