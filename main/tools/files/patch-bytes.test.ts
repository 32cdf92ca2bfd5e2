import { describe, expect, it } from 'vitest';
import { spliceUtf8 } from './patch-bytes.ts';
import type { Replacement } from './patch-edits.ts';
import { applyReplacements, seeded } from '../../../test/replacements.ts';

// The spliced bytes must be exactly the patched text encoded whole. Random texts (ASCII, accents,
// CJK, emoji, CRLF) and random replacements from a fixed seed, so a failure always reproduces.

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function randomText(next: () => number, ascii: boolean): string {
  const words = ascii ? ['a', 'foo', ' ', '\n', '\r\n', 'x;'] : ['a', 'café', '日本語', '😀', '\n', '\r\n', 'ß', ' '];
  let text = '';
  for (let count = Math.floor(next() * 80); count > 0; count -= 1) text += words[Math.floor(next() * words.length)];
  return text;
}

/** Replacements that start and end between whole characters, as matched text does. */
function randomReplacements(next: () => number, text: string): Replacement[] {
  const cuts = [0];
  for (const character of text) cuts.push((cuts.at(-1) ?? 0) + character.length);
  const pieces = ['', 'Z', 'é', '新しい\n', '🎉', 'x\r\ny'];
  const replacements: Replacement[] = [];
  let index = 0;
  while (index < cuts.length) {
    const start = cuts[index + Math.floor(next() * 6)];
    const endIndex = index + Math.floor(next() * 6) + Math.floor(next() * 4);
    const end = cuts[Math.min(endIndex, cuts.length - 1)];
    if (start === undefined || end === undefined || end < start) break;
    replacements.push({ start, end, text: pieces[Math.floor(next() * pieces.length)] ?? '', edit: 0 });
    index = cuts.indexOf(end) + 1 + Math.floor(next() * 3);
  }
  return replacements;
}

describe('spliceUtf8', () => {
  it.each([
    ['ASCII', true, false],
    ['ASCII with a byte order mark', true, true],
    ['accents, CJK and emoji', false, false],
    ['accents, CJK and emoji with a byte order mark', false, true],
  ])('gives the bytes of the patched text encoded whole (%s)', (_, ascii, bom) => {
    const next = seeded(ascii ? 11 : 12);
    for (let round = 0; round < 200; round += 1) {
      const text = randomText(next, ascii);
      const bytes = Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
      const replacements = randomReplacements(next, text);
      const expected = Buffer.concat([
        bom ? BOM : Buffer.alloc(0),
        Buffer.from(applyReplacements(text, replacements), 'utf8'),
      ]);
      // Compared as hex: a mismatch still shows where, and 800 comparisons stay fast.
      const spliced = spliceUtf8(bytes, bom ? 3 : 0, text, replacements);
      expect(spliced && Buffer.concat(spliced).toString('hex'), `round ${round}`).toBe(expected.toString('hex'));
    }
  });

  it('declines a replacement that cuts an emoji in two or is not well-formed text', () => {
    const text = 'a😀b';
    const bytes = Buffer.from(text, 'utf8');
    expect(spliceUtf8(bytes, 0, text, [{ start: 1, end: 2, text: 'x', edit: 0 }])).toBeNull();
    expect(spliceUtf8(bytes, 0, text, [{ start: 2, end: 3, text: 'x', edit: 0 }])).toBeNull();
    expect(spliceUtf8(bytes, 0, text, [{ start: 0, end: 1, text: '\ud800', edit: 0 }])).toBeNull();
    const spliced = spliceUtf8(bytes, 0, text, [{ start: 1, end: 3, text: '🎉', edit: 0 }]);
    expect(spliced && Buffer.concat(spliced)).toEqual(Buffer.from('a🎉b'));
  });
});
