// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changedSegments, diffRows } from './diff-model.ts';
import { DiffLines } from './PatchFileView.tsx';

// Diffs as people read them: the file name, old and new line numbers, the unchanged lines between
// hunks counted, and a renamed word marked inside each changed line.

afterEach(cleanup);

const RENAME = [
  '--- a/src/user.ts',
  '+++ b/src/user.ts',
  '@@ -1,3 +1,3 @@',
  '-const userName = load();',
  '-print(userName);',
  '+const accountName = load();',
  '+print(accountName);',
  ' done();',
  '@@ -20,2 +20,2 @@',
  '-log(userName);',
  '+log(accountName);',
  ' end();',
  '',
].join('\n');

describe('a diff', () => {
  it('reads as the file name and numbered lines, with the unchanged stretch between hunks counted', () => {
    const rows = diffRows(RENAME);
    expect(rows.map((row) => row.kind)).toEqual([
      'file',
      'remove',
      'remove',
      'add',
      'add',
      'context',
      'gap',
      'remove',
      'add',
      'context',
    ]);
    expect(rows[0]?.text).toBe('src/user.ts');
    expect(rows.map((row) => [row.oldNo ?? null, row.newNo ?? null])).toEqual([
      [null, null],
      [1, null],
      [2, null],
      [null, 1],
      [null, 2],
      [3, 3],
      [null, null],
      [20, null],
      [null, 20],
      [21, 21],
    ]);
    expect(rows[6]?.text).toBe('16 unchanged lines');
  });

  it('marks only the renamed word in each paired line', () => {
    const rows = diffRows(RENAME);
    const marked = rows
      .filter((row) => row.kind === 'remove' || row.kind === 'add')
      .map((row) => row.segments?.filter((segment) => segment.changed).map((segment) => segment.text));
    expect(marked).toEqual([
      ['userName'],
      ['userName'],
      ['accountName'],
      ['accountName'],
      ['userName'],
      ['accountName'],
    ]);
  });

  it('marks a whole line that has nothing in common with its pair', () => {
    expect(changedSegments('alpha', 'beta')).toEqual([{ text: 'alpha', changed: true }]);
  });

  it('shows a one-word rename across many lines as many small marks, not blocks', () => {
    const count = 30;
    const diff = [
      '--- a/x.ts',
      '+++ b/x.ts',
      `@@ -1,${count} +1,${count} @@`,
      ...Array.from({ length: count }, (_, i) => `-call(oldName, ${i});`),
      ...Array.from({ length: count }, (_, i) => `+call(newName, ${i});`),
    ].join('\n');
    render(<DiffLines diff={diff} />);
    const marks = screen.getAllByTestId('diff-word');
    expect(marks).toHaveLength(2 * count);
    expect(new Set(marks.map((mark) => mark.textContent))).toEqual(new Set(['oldName', 'newName']));
  });
});
