import { describe, expect, it } from 'vitest';
import { planEdits } from './patch-edits.ts';

// Matching all edits in one pass over the file finds what one search per edit found.

describe('planEdits', () => {
  it('sees two edits that start at the same place as overlapping', () => {
    const plan = planEdits(
      'const a = 1; // one\nconst b = 2;\n',
      [
        { old_text: 'const a = 1;', new_text: 'const a = 3;' },
        { old_text: 'const a = 1; // one', new_text: 'const a = 4;' },
      ],
      'f.ts',
    );
    expect(plan).toEqual({ ok: false, error: 'Edits 1 and 2 overlap at line 1 of f.ts. Merge them into one edit.' });
  });

  it('counts overlapping places when old_text must be unique, and replaces disjoint ones with replace_all', () => {
    const unique = planEdits('aaa\n', [{ old_text: 'aa', new_text: 'b' }], 'f.txt');
    expect(unique.ok ? '' : unique.error).toMatch(/^The edit: old_text matches 2 places in f.txt \(lines 1, 1\)/);
    const all = planEdits('aaaa\n', [{ old_text: 'aa', new_text: 'b', replace_all: true }], 'f.txt');
    expect(all).toMatchObject({ ok: true, text: 'bb\n' });
  });

  it('matches a multi-line old_text across CRLF line breaks among single-line edits', () => {
    const plan = planEdits(
      'one\r\ntwo\r\nthree\r\nfour\r\n',
      [
        { old_text: 'four', new_text: '4' },
        { old_text: 'two\nthree', new_text: '2\n3' },
        { old_text: 'one', new_text: '1' },
      ],
      'f.txt',
    );
    expect(plan).toMatchObject({ ok: true, text: '1\r\n2\r\n3\r\n4\r\n' });
  });

  it('finds every edit of many in a long file, each where it is', () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `value${index} = ${index};`);
    const edits = [4999, 10, 2500, 1].map((line) => ({ old_text: `value${line} = ${line};`, new_text: `v${line}` }));
    const plan = planEdits(`${lines.join('\n')}\n`, edits, 'f.ts');
    if (!plan.ok) throw new Error(plan.error);
    const changed = plan.text.split('\n');
    expect([changed[1], changed[10], changed[2500], changed[4999], changed[11]]).toEqual([
      'v1',
      'v10',
      'v2500',
      'v4999',
      'value11 = 11;',
    ]);
  });
});
