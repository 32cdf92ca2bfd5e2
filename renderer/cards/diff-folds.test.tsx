// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileView } from '../../protocol/files.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { CHANGED_SINCE, foldRead, tailFold, TAIL_LINES, unfold } from './diff-folds.ts';
import { diffRows } from './diff-model.ts';
import { DiffLines } from './PatchFileView.tsx';

// A diff's folded unchanged lines, unfolded from the file as it is now: numbered as the diff numbers
// them, and said to be from a changed file when the lines around them are not the diff's.

afterEach(cleanup);

const BEFORE = Array.from({ length: 30 }, (_unused, index) => `line ${index + 1}`);

/** `line 10` → `LINE 10` and `line 25` → `LINE 25`, with three lines of context. */
const DIFF = [
  '--- src/a.txt',
  '+++ src/a.txt',
  '@@ -7,7 +7,7 @@',
  ...['line 7', 'line 8', 'line 9'].map((line) => ` ${line}`),
  '-line 10',
  '+LINE 10',
  ...['line 11', 'line 12', 'line 13'].map((line) => ` ${line}`),
  '@@ -22,7 +22,7 @@',
  ...['line 22', 'line 23', 'line 24'].map((line) => ` ${line}`),
  '-line 25',
  '+LINE 25',
  ...['line 26', 'line 27', 'line 28'].map((line) => ` ${line}`),
  '',
].join('\n');

function pageOf(lines: readonly string[], offset: number, limit: number): FileView {
  const slice = lines.slice(offset - 1, offset - 1 + limit);
  return {
    path: 'src/a.txt',
    range: { start: offset, end: offset + slice.length - 1 },
    total_lines: lines.length,
    content: slice.map((line) => `${line}\n`).join(''),
    truncated: offset - 1 + limit < lines.length,
    sha256: '0'.repeat(64),
  };
}

const afterPatch = BEFORE.map((line) => (line === 'line 10' || line === 'line 25' ? line.toUpperCase() : line));

describe('unfold', () => {
  const rows = diffRows(DIFF);
  const between = rows.findIndex((row) => row.fold?.newStart === 14);

  it('folds the lines before the first hunk and between hunks, with where they are', () => {
    expect(rows.filter((row) => row.fold).map((row) => row.fold)).toEqual([
      { oldStart: 1, newStart: 1, count: 6 },
      { oldStart: 14, newStart: 14, count: 8 },
    ]);
  });

  it('offers the rest of the file after the last hunk, read from the line the diff ends on', () => {
    const tail = tailFold(rows)!;
    expect(tail.fold).toEqual({ oldStart: 29, newStart: 29, count: TAIL_LINES, toEnd: true });
    expect(foldRead(tail.fold!)).toEqual({ offset: 28, limit: TAIL_LINES + 1 });
    const withTail = [...rows, tail];
    const unfolded = unfold(withTail, withTail.length - 1, pageOf(afterPatch, 28, TAIL_LINES + 1));
    expect(unfolded).toMatchObject({ changed: false, more: 0 });
    expect(unfolded.rows.map((row) => [row.oldNo, row.newNo, row.text])).toEqual([
      [29, 29, 'line 29'],
      [30, 30, 'line 30'],
    ]);
  });

  it('has no tail for a diff that names no file', () => {
    expect(tailFold(diffRows(DIFF.split('\n').slice(2).join('\n')))).toBeNull();
  });

  it('reads one line more on each side than the fold holds', () => {
    expect(foldRead({ oldStart: 14, newStart: 14, count: 8 })).toEqual({ offset: 13, limit: 10 });
    expect(foldRead({ oldStart: 1, newStart: 1, count: 6 })).toEqual({ offset: 1, limit: 7 });
  });

  it('gives the lines as context rows numbered on both sides', () => {
    const { offset, limit } = foldRead(rows[between]!.fold!);
    const unfolded = unfold(rows, between, pageOf(afterPatch, offset, limit));
    expect(unfolded.changed).toBe(false);
    expect(unfolded.rows.map((row) => [row.oldNo, row.newNo, row.text])).toEqual(
      Array.from({ length: 8 }, (_unused, index) => [14 + index, 14 + index, `line ${14 + index}`]),
    );
  });

  it('says the file changed when a line around the fold is not the diff’s', () => {
    const edited = afterPatch.map((line) => (line === 'line 13' ? 'line 13 edited later' : line));
    const { offset, limit } = foldRead(rows[between]!.fold!);
    expect(unfold(rows, between, pageOf(edited, offset, limit)).changed).toBe(true);
  });

  it('says the file changed when it now ends inside the fold', () => {
    const { offset, limit } = foldRead(rows[between]!.fold!);
    const unfolded = unfold(rows, between, pageOf(afterPatch.slice(0, 16), offset, limit));
    expect(unfolded.rows).toHaveLength(3);
    expect(unfolded.changed).toBe(true);
  });
});

function showDiff(file: readonly string[]) {
  const reads: [string, number | undefined, number | undefined][] = [];
  const actions = new Proxy({} as PanelActions, {
    get: (_, name) =>
      name === 'readFile'
        ? async (path: string, offset?: number, limit?: number) => {
            reads.push([path, offset, limit]);
            return { ok: true, value: pageOf(file, offset ?? 1, limit ?? 2000) };
          }
        : async () => undefined,
  });
  render(
    <ActionsContext.Provider value={actions}>
      <DiffLines diff={DIFF} />
    </ActionsContext.Provider>,
  );
  return reads;
}

describe('a diff card’s folds', () => {
  it('unfold into the diff when pressed, read from the file the diff names', async () => {
    const reads = showDiff(afterPatch);
    const folds = screen.getAllByTestId('diff-fold');
    expect(folds.map((fold) => fold.textContent)).toEqual([
      '⋯ 6 unchanged lines',
      '⋯ 8 unchanged lines',
      '⋯ the rest of the file',
    ]);
    await act(async () => fireEvent.click(folds[1]!));
    expect(reads).toEqual([['src/a.txt', 13, 10]]);
    const texts = [...screen.getByTestId('patch-diff').querySelectorAll('[data-kind="context"] .diff-text')].map(
      (line) => line.textContent,
    );
    expect(texts).toEqual(
      [7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28].map((n) => `line ${n}`),
    );
    expect(screen.getAllByTestId('diff-fold')).toHaveLength(2);
    expect(screen.queryByText((text) => text.endsWith(CHANGED_SINCE))).toBeNull();
  });

  it('unfold the rest of the file below the last hunk, to its end', async () => {
    const reads = showDiff(afterPatch);
    await act(async () => fireEvent.click(screen.getByText('⋯ the rest of the file')));
    expect(reads).toEqual([['src/a.txt', 28, TAIL_LINES + 1]]);
    const rows = [...screen.getByTestId('patch-diff').querySelectorAll('[data-kind]')].slice(-3);
    expect(rows.map((row) => row.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      '2929 line 29',
      '3030 line 30',
      '⋯ End of the file.',
    ]);
    expect(screen.queryByText('⋯ the rest of the file')).toBeNull();
  });

  it('say so when the lines come from a file changed since the diff', async () => {
    // A line added at the top since: every line after it moved down one.
    showDiff(['a line added since', ...afterPatch]);
    await act(async () => fireEvent.click(screen.getAllByTestId('diff-fold')[0]!));
    expect(screen.getByText((text) => text.endsWith(CHANGED_SINCE))).toBeTruthy();
  });

  it('stay a count where no file can be read (a diff without a panel)', () => {
    render(<DiffLines diff={DIFF} />);
    expect(screen.queryAllByTestId('diff-fold')).toEqual([]);
    expect(screen.getByText(/^⋯ 6 unchanged lines$/)).toBeTruthy();
  });
});
