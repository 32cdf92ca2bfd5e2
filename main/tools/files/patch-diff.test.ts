import { applyPatch, parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffReplacements } from './patch-diff.ts';
import { PatchedText } from './patched-text.ts';
import type { Replacement } from './patch-edits.ts';
import { applyReplacements, seeded } from '../../../test/replacements.ts';

// The diff of any set of replacements must turn the old text into the new one. Random texts and
// random replacements from a fixed seed, so a failure always reproduces.

function randomText(next: () => number, lines: number): string {
  const words = ['a', 'b', 'foo', 'bar', '', '  x', 'same'];
  const out: string[] = [];
  for (let index = 0; index < lines; index += 1) {
    out.push(words[Math.floor(next() * words.length)] ?? '');
    out.push(next() < 0.1 ? '\r\n' : '\n');
  }
  if (next() < 0.3) out.pop();
  return out.join('');
}

function randomReplacements(next: () => number, text: string): Replacement[] {
  const replacements: Replacement[] = [];
  let cursor = 0;
  const pieces = ['', 'Z', 'new\n', '\n', 'x\ny\n', 'tail'];
  while (cursor < text.length) {
    const start = cursor + Math.floor(next() * 40);
    const end = Math.min(text.length, start + 1 + Math.floor(next() * 12));
    if (start >= text.length) break;
    replacements.push({
      start,
      end,
      text: pieces[Math.floor(next() * pieces.length)] ?? '',
      edit: replacements.length,
    });
    cursor = end + Math.floor(next() * 3);
  }
  return replacements;
}

describe('diffReplacements', () => {
  it.each([
    ['diffed by jsdiff', 1000],
    ['shown as replaced whole when too different', 1],
  ])('produces diffs that apply, for many random texts and replacements (%s)', (_, maxEditLength) => {
    const next = seeded(20240601);
    for (let round = 0; round < 400; round += 1) {
      const before = randomText(next, 1 + Math.floor(next() * 60));
      const replacements = randomReplacements(next, before);
      const after = applyReplacements(before, replacements);
      if (after === before || replacements.length === 0) continue;
      const summary = diffReplacements('f', before, after, replacements, { maxEditLength });
      const rebuilt = applyPatch(before.replace(/\r\n/g, '\n'), summary.diff);
      expect(rebuilt, `round ${round}`).toBe(after.replace(/\r\n/g, '\n'));
    }
  });

  it('numbers every hunk with the lines it stands at on both sides', () => {
    const next = seeded(7);
    const linesOf = (text: string): string[] => text.replace(/\r\n/g, '\n').split('\n');
    for (let round = 0; round < 300; round += 1) {
      const before = randomText(next, 1 + Math.floor(next() * 200));
      const replacements = randomReplacements(next, before).filter(() => next() < 0.15);
      const after = applyReplacements(before, replacements);
      if (after === before || replacements.length === 0) continue;
      const summary = diffReplacements('f', before, after, replacements);
      // Read from the original and the replacements, the patched text is never made: the same diff.
      expect(diffReplacements('f', before, new PatchedText(before, replacements), replacements)).toEqual(summary);
      const [parsed] = parsePatch(summary.diff);
      const oldLines = linesOf(before);
      const newLines = linesOf(after);
      for (const hunk of parsed?.hunks ?? []) {
        const lines = hunk.lines.filter((line) => !line.startsWith('\\'));
        const oldSide = lines.filter((line) => !line.startsWith('+')).map((line) => line.slice(1));
        const newSide = lines.filter((line) => !line.startsWith('-')).map((line) => line.slice(1));
        const oldAt = Math.max(hunk.oldStart - 1 + (hunk.oldLines === 0 ? 1 : 0), 0);
        const newAt = Math.max(hunk.newStart - 1 + (hunk.newLines === 0 ? 1 : 0), 0);
        expect(oldLines.slice(oldAt, oldAt + oldSide.length), `round ${round}, old side`).toEqual(oldSide);
        expect(newLines.slice(newAt, newAt + newSide.length), `round ${round}, new side`).toEqual(newSide);
      }
    }
  });

  it('counts added and removed lines like a whole-file diff would', () => {
    const before = 'a\nb\nc\nd\n';
    const summary = diffReplacements('f', before, 'a\nB\nc\nd\nE\n', [
      { start: 2, end: 3, text: 'B', edit: 0 },
      { start: 7, end: 8, text: 'd\nE', edit: 1 },
    ]);
    expect(summary).toMatchObject({ added: 2, removed: 1, hunks: 1 });
  });
});
