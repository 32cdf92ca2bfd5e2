// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changedSegments, diffRows, lineSimilarity, overlay, splitRows } from './diff-model.ts';
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

  it('side by side puts each removed line beside the added line that replaces it', () => {
    const split = splitRows(diffRows(RENAME));
    const shape = split.map((row) =>
      row.kind === 'full' ? row.row.kind : `${row.left?.kind ?? '·'}|${row.right?.kind ?? '·'}`,
    );
    expect(shape).toEqual([
      'file',
      'remove|add',
      'remove|add',
      'context|context',
      'gap',
      'remove|add',
      'context|context',
    ]);
    const first = split[1];
    expect(first?.kind === 'split' ? [first.left?.oldNo, first.right?.newNo] : null).toEqual([1, 1]);
  });

  it('side by side leaves the other column empty where a change only removes or only adds', () => {
    const split = splitRows(diffRows('@@ -1,2 +1,1 @@\n-a\n-b\n+a2\n'));
    expect(
      split.map((row) => (row.kind === 'split' ? [row.left?.text ?? null, row.right?.text ?? null] : null)),
    ).toEqual([
      ['a', 'a2'],
      ['b', null],
    ]);
  });

  it('pairs an edited line with the added line like it, not with an unrelated line inserted before it', () => {
    const diff = [
      '@@ -1,1 +1,5 @@',
      '-module.exports = { add };',
      '+function subtract(a, b) {',
      '+  return a - b;',
      '+}',
      '+',
      '+module.exports = { add, subtract };',
    ].join('\n');
    const rows = diffRows(diff);
    const marked = rows.map((row) =>
      row.segments
        ?.filter((segment) => segment.changed)
        .map((segment) => segment.text)
        .join(''),
    );
    expect(marked.map((text) => text?.replace(/\s/g, ''))).toEqual([
      '',
      undefined,
      undefined,
      undefined,
      undefined,
      ',subtract',
    ]);
    expect(rows.find((row) => row.text.startsWith('function'))?.pair).toBeUndefined();
    const split = splitRows(rows).map((row) =>
      row.kind === 'split' ? [row.left?.text ?? null, row.right?.text ?? null] : null,
    );
    expect(split).toEqual([
      [null, 'function subtract(a, b) {'],
      [null, '  return a - b;'],
      [null, '}'],
      [null, ''],
      ['module.exports = { add };', 'module.exports = { add, subtract };'],
    ]);
  });

  it('marks no words between lines that share less than half their characters', () => {
    expect(lineSimilarity('module.exports = { add };', 'function subtract(a, b) {')).toBeLessThan(0.5);
    expect(lineSimilarity('print(userName);', 'print(accountName);')).toBeGreaterThanOrEqual(0.5);
    const rows = diffRows('@@ -1,1 +1,1 @@\n-module.exports = { add };\n+function subtract(a, b) {\n');
    expect(rows.map((row) => row.segments)).toEqual([undefined, undefined]);
    render(<DiffLines diff={'@@ -1,1 +1,1 @@\n-module.exports = { add };\n+function subtract(a, b) {\n'} />);
    expect(screen.queryAllByTestId('diff-word')).toHaveLength(0);
  });

  it('lays the changed words over the syntax colours of the same line', () => {
    const tokens = [
      { content: 'const ', style: 'keyword' },
      { content: 'userName', style: 'name' },
      { content: ' = 1;', style: 'plain' },
    ];
    const segments = changedSegments('const userName = 1;', 'const accountName = 1;');
    expect(overlay(tokens, segments)).toEqual([
      { text: 'const ', style: 'keyword', changed: false },
      { text: 'userName', style: 'name', changed: true },
      { text: ' = 1;', style: 'plain', changed: false },
    ]);
    expect(
      overlay(
        [{ content: 'ab cd', style: 's' }],
        [
          { text: 'ab ', changed: false },
          { text: 'cd', changed: true },
        ],
      ),
    ).toEqual([
      { text: 'ab ', style: 's', changed: false },
      { text: 'cd', style: 's', changed: true },
    ]);
  });
});
