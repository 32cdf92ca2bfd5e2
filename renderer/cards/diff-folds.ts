import type { FileView } from '../../protocol/files.ts';
import type { DiffFold, DiffRow } from './diff-model.ts';

// The unchanged lines a diff folds ("⋯ 40 unchanged lines"), unfolded. A diff carries only its
// context lines, so the rest is read from the file as it is now: with the line just before and the
// line just after the fold, which the diff itself shows, so a file changed since the diff is noticed
// (those lines differ, or the file ends early) and said, never passed off as the diff's own.

/** Lines the fold after the last hunk shows at most; the file viewer has the rest. */
export const TAIL_LINES = 200;

/**
 * Which side of the diff the file on disk holds: `new` once the change is written (a card), `old`
 * while it is only proposed (a review before the write). Folds are read and numbered on that side.
 */
export type DiskSide = 'old' | 'new';

const startOf = (fold: DiffFold, side: DiskSide): number => (side === 'old' ? fold.oldStart : fold.newStart);
const lineNo = (row: DiffRow, side: DiskSide): number | undefined => (side === 'old' ? row.oldNo : row.newNo);
/** A row that has a line on that side of the diff. */
const onSide = (row: DiffRow, side: DiskSide): boolean => row.kind !== (side === 'old' ? 'add' : 'remove');

/** The page to read for a fold: the fold's lines on the disk's side, one line before and one after. */
export function foldRead(fold: DiffFold, side: DiskSide = 'new'): { offset: number; limit: number } {
  const start = startOf(fold, side);
  const offset = Math.max(1, start - 1);
  return { offset, limit: start - offset + fold.count + (fold.toEnd ? 0 : 1) };
}

/**
 * The fold after the last hunk of a diff that names its file ("⋯ the rest of the file"); null when
 * none. `named`: the file is known though the diff has no header naming it.
 */
export function tailFold(rows: readonly DiffRow[], named = rows.some((row) => row.kind === 'file')): DiffRow | null {
  if (!named) return null;
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

/** Line `no` of the disk's side, as a row of the diff next to the fold shows it; undefined when none does. */
function shownLine(rows: readonly DiffRow[], index: number, no: number, side: DiskSide): string | undefined {
  for (const near of [rows[index - 1], rows[index + 1]]) {
    if (near && onSide(near, side) && lineNo(near, side) === no) return near.text;
  }
  return undefined;
}

/** The rows that replace the fold at `rows[index]`, from `page` (read as foldRead says). */
export function unfold(rows: readonly DiffRow[], index: number, page: FileView, side: DiskSide = 'new'): Unfolded {
  const fold = rows[index]?.fold;
  if (!fold) return { rows: [], changed: false };
  const start = startOf(fold, side);
  const lines = pageLines(page);
  const lineAt = (no: number): string | undefined => lines[no - page.range.start];
  const unfolded: DiffRow[] = [];
  for (let offset = 0; offset < fold.count; offset += 1) {
    const text = lineAt(start + offset);
    if (text === undefined) break;
    unfolded.push({ kind: 'context', text, oldNo: fold.oldStart + offset, newNo: fold.newStart + offset });
  }
  if (fold.toEnd) {
    const before = shownLine(rows, index, start - 1, side) ?? lastShown(rows, start - 1, side);
    const more = Math.max(0, page.total_lines - (start - 1) - unfolded.length);
    return { rows: unfolded, changed: before !== undefined && lineAt(start - 1) !== before, more };
  }
  let changed = unfolded.length < fold.count;
  for (const border of [start - 1, start + fold.count]) {
    const shown = shownLine(rows, index, border, side);
    if (shown !== undefined && lineAt(border) !== shown) changed = true;
  }
  return { rows: unfolded, changed };
}

/** The text of the diff's row for line `no` of the disk's side, wherever it is. */
function lastShown(rows: readonly DiffRow[], no: number, side: DiskSide): string | undefined {
  return rows.find((row) => onSide(row, side) && lineNo(row, side) === no)?.text;
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
