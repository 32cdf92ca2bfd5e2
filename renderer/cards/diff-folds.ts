import type { FileView } from '../../protocol/files.ts';
import type { DiffFold, DiffRow } from './diff-model.ts';

// The unchanged lines a diff folds ("⋯ 40 unchanged lines"), unfolded. A diff carries only its
// context lines, so the rest is read from the file as it is now: with the line just before and the
// line just after the fold, which the diff itself shows, so a file changed since the diff is noticed
// (those lines differ, or the file ends early) and said, never passed off as the diff's own.

/** Lines the fold after the last hunk shows at most; the file viewer has the rest. */
export const TAIL_LINES = 200;

/** The page to read for a fold: the fold's lines on the new side, one line before and one after. */
export function foldRead(fold: DiffFold): { offset: number; limit: number } {
  const offset = Math.max(1, fold.newStart - 1);
  return { offset, limit: fold.newStart - offset + fold.count + (fold.toEnd ? 0 : 1) };
}

/** The fold after the last hunk of a diff that names its file ("⋯ the rest of the file"); null when none. */
export function tailFold(rows: readonly DiffRow[]): DiffRow | null {
  if (!rows.some((row) => row.kind === 'file')) return null;
  let lastOld = 0;
  let lastNew = 0;
  for (const row of rows) {
    lastOld = Math.max(lastOld, row.oldNo ?? 0);
    lastNew = Math.max(lastNew, row.newNo ?? 0);
  }
  if (lastNew === 0) return null;
  return {
    kind: 'gap',
    text: 'the rest of the file',
    fold: { oldStart: lastOld + 1, newStart: lastNew + 1, count: TAIL_LINES, toEnd: true },
  };
}

export interface Unfolded {
  /** The fold's lines as context rows, numbered as the diff numbers them. */
  rows: DiffRow[];
  /** The file is not as the diff left it around these lines. */
  changed: boolean;
  /** After the last hunk: how many lines the file has past those shown (0 at its end). */
  more?: number;
}

function pageLines(page: FileView): string[] {
  if (page.range.end < page.range.start) return [];
  const lines = page.content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** The line `newNo` of the new side, as a row of the diff next to the fold shows it; undefined when none does. */
function shownNewLine(rows: readonly DiffRow[], index: number, newNo: number): string | undefined {
  for (const near of [rows[index - 1], rows[index + 1]]) {
    if (near && near.kind !== 'remove' && near.newNo === newNo) return near.text;
  }
  return undefined;
}

/** The rows that replace the fold at `rows[index]`, from `page` (read as foldRead says). */
export function unfold(rows: readonly DiffRow[], index: number, page: FileView): Unfolded {
  const fold = rows[index]?.fold;
  if (!fold) return { rows: [], changed: false };
  const lines = pageLines(page);
  const lineAt = (newNo: number): string | undefined => lines[newNo - page.range.start];
  const unfolded: DiffRow[] = [];
  for (let offset = 0; offset < fold.count; offset += 1) {
    const text = lineAt(fold.newStart + offset);
    if (text === undefined) break;
    unfolded.push({ kind: 'context', text, oldNo: fold.oldStart + offset, newNo: fold.newStart + offset });
  }
  if (fold.toEnd) {
    const before = shownNewLine(rows, index, fold.newStart - 1) ?? lastShown(rows, fold.newStart - 1);
    const more = Math.max(0, page.total_lines - (fold.newStart - 1) - unfolded.length);
    return { rows: unfolded, changed: before !== undefined && lineAt(fold.newStart - 1) !== before, more };
  }
  let changed = unfolded.length < fold.count;
  for (const border of [fold.newStart - 1, fold.newStart + fold.count]) {
    const shown = shownNewLine(rows, index, border);
    if (shown !== undefined && lineAt(border) !== shown) changed = true;
  }
  return { rows: unfolded, changed };
}

/** The text of the diff's row for new line `newNo`, wherever it is. */
function lastShown(rows: readonly DiffRow[], newNo: number): string | undefined {
  return rows.find((row) => row.kind !== 'remove' && row.newNo === newNo)?.text;
}

function tailNote(more: number): string {
  if (more === 0) return 'End of the file.';
  return `${more} more ${more === 1 ? 'line' : 'lines'} to the end of the file: open the file to read them.`;
}

export const CHANGED_SINCE = 'The file has changed since this diff: the lines above are from the file as it is now.';

/** The rows with each unfolded fold replaced by its lines (and a note where the file changed since). */
export function withUnfolded(rows: readonly DiffRow[], opened: ReadonlyMap<DiffRow, Unfolded>): readonly DiffRow[] {
  if (opened.size === 0) return rows;
  const shown: DiffRow[] = [];
  for (const row of rows) {
    const unfolded = opened.get(row);
    if (!unfolded) {
      shown.push(row);
      continue;
    }
    shown.push(...unfolded.rows);
    if (unfolded.changed) shown.push({ kind: 'gap', text: CHANGED_SINCE });
    if (unfolded.more !== undefined) shown.push({ kind: 'gap', text: tailNote(unfolded.more) });
  }
  return shown;
}
