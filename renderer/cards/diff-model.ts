// A unified diff as rows a person reads: the file name instead of the raw `---`/`+++` header, old
// and new line numbers for every line, a marker for the unchanged lines between hunks, and removed
// lines paired with the added lines that replace them, each with the words that changed marked, so
// a one-word rename across many lines reads as many small changes.

export type DiffRowKind = 'file' | 'gap' | 'context' | 'remove' | 'add';

/** A stretch of a changed line: `changed` when it differs from the paired line. */
export interface Segment {
  text: string;
  changed: boolean;
}

export interface DiffRow {
  kind: DiffRowKind;
  /** The line's text without its diff sign; the file name for `file`; a sentence for `gap`. */
  text: string;
  oldNo?: number;
  newNo?: number;
  /** For a removed or added line paired with its counterpart: where the words differ. */
  segments?: Segment[];
  /** For the unchanged lines a hunk header skipped: where they are, so they can be unfolded. */
  fold?: DiffFold;
}

/** A run of unchanged lines the diff leaves out: their first old and new line numbers and how many. */
export interface DiffFold {
  oldStart: number;
  newStart: number;
  count: number;
  /** The lines after the last hunk: how many there are the diff does not say; `count` is how many to read. */
  toEnd?: boolean;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` stays. */
function headerPath(line: string): string {
  const name = line.slice(4).split('\t')[0] ?? '';
  return /^[ab]\//.test(name) ? name.slice(2) : name;
}

/** Words, runs of spaces and single punctuation marks: what a word-level change is made of. */
function tokens(text: string): string[] {
  return text.match(/\w+|\s+|[^\w\s]/g) ?? [];
}

const MAX_TOKENS = 400;

/** The stretches of `mine` that are not in the longest common token sequence with `other`. */
export function changedSegments(mine: string, other: string): Segment[] {
  const a = tokens(mine);
  const b = tokens(other);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return [{ text: mine, changed: true }];
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const segments: Segment[] = [];
  const push = (text: string, changed: boolean) => {
    const last = segments.at(-1);
    if (last && last.changed === changed) last.text += text;
    else segments.push({ text, changed });
  };
  let i = 0;
  let j = 0;
  while (i < a.length) {
    if (j < b.length && a[i] === b[j]) {
      push(a[i]!, false);
      i += 1;
      j += 1;
    } else if (j < b.length && lengths[i]![j + 1]! >= lengths[i + 1]![j]!) j += 1;
    else {
      push(a[i]!, true);
      i += 1;
    }
  }
  return segments;
}

/** Pairs the i-th removed line of a change with its i-th added line, marking the words that differ. */
function pairChange(removed: DiffRow[], added: DiffRow[]): void {
  const pairs = Math.min(removed.length, added.length);
  for (let index = 0; index < pairs; index += 1) {
    const remove = removed[index]!;
    const add = added[index]!;
    remove.segments = changedSegments(remove.text, add.text);
    add.segments = changedSegments(add.text, remove.text);
  }
}

/** Where a diff's unchanged lines before its first hunk begin: line 1 of each side, unless it is one hunk of several shown apart. */
export interface DiffStart {
  old: number;
  new: number;
}

export function diffRows(diff: string, start?: DiffStart): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = start?.old ?? 0;
  let newNo = start?.new ?? 0;
  let removed: DiffRow[] = [];
  let added: DiffRow[] = [];
  const flush = () => {
    pairChange(removed, added);
    removed = [];
    added = [];
  };
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ ')) {
      flush();
      const before = headerPath(line);
      const after = headerPath(lines[index + 1]!);
      rows.push({ kind: 'file', text: after === '/dev/null' ? before : after });
      index += 1;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      flush();
      const nextOld = Number(hunk[1]);
      const fromOld = oldNo === 0 ? 1 : oldNo;
      const fromNew = newNo === 0 ? 1 : newNo;
      const skipped = nextOld - fromOld;
      if (skipped > 0)
        rows.push({
          kind: 'gap',
          text: `${skipped} unchanged ${skipped === 1 ? 'line' : 'lines'}`,
          fold: { oldStart: fromOld, newStart: fromNew, count: skipped },
        });
      oldNo = nextOld;
      newNo = Number(hunk[2]);
      continue;
    }
    if (line.startsWith('-')) {
      if (added.length > 0) flush();
      const row: DiffRow = { kind: 'remove', text: line.slice(1), oldNo: oldNo++ };
      removed.push(row);
      rows.push(row);
    } else if (line.startsWith('+')) {
      const row: DiffRow = { kind: 'add', text: line.slice(1), newNo: newNo++ };
      added.push(row);
      rows.push(row);
    } else if (line.startsWith('\\')) {
      rows.push({ kind: 'gap', text: line.slice(2) });
    } else {
      flush();
      rows.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    }
  }
  flush();
  return rows;
}

/** One row of a side-by-side diff: the old line on the left, the new on the right, or a full-width row. */
export type SplitRow = { kind: 'full'; row: DiffRow } | { kind: 'split'; left: DiffRow | null; right: DiffRow | null };

/** The unified rows side by side: a change's removed lines beside the added lines that replace them. */
export function splitRows(rows: readonly DiffRow[]): SplitRow[] {
  const split: SplitRow[] = [];
  let index = 0;
  while (index < rows.length) {
    const row = rows[index]!;
    if (row.kind === 'file' || row.kind === 'gap') {
      split.push({ kind: 'full', row });
      index += 1;
    } else if (row.kind === 'context') {
      split.push({ kind: 'split', left: row, right: row });
      index += 1;
    } else {
      const removed: DiffRow[] = [];
      const added: DiffRow[] = [];
      while (rows[index]?.kind === 'remove') removed.push(rows[index++]!);
      while (rows[index]?.kind === 'add') added.push(rows[index++]!);
      for (let i = 0; i < Math.max(removed.length, added.length); i += 1)
        split.push({ kind: 'split', left: removed[i] ?? null, right: added[i] ?? null });
    }
  }
  return split;
}

/** A run of a line with one syntax colour and one changed/unchanged state. */
export interface Piece<Style> {
  text: string;
  style: Style | undefined;
  changed: boolean;
}

/** Lays the changed-word segments over the syntax tokens of the same line: runs with both. */
export function overlay<Style>(
  tokens: ReadonlyArray<{ content: string; style?: Style }>,
  segments: readonly Segment[],
): Piece<Style>[] {
  const pieces: Piece<Style>[] = [];
  let segment = 0;
  let segmentLeft = segments[0]?.text.length ?? Infinity;
  for (const token of tokens) {
    let rest = token.content;
    while (rest.length > 0) {
      const take = Math.min(rest.length, segmentLeft);
      pieces.push({ text: rest.slice(0, take), style: token.style, changed: segments[segment]?.changed ?? false });
      rest = rest.slice(take);
      segmentLeft -= take;
      if (segmentLeft === 0) {
        segment += 1;
        segmentLeft = segments[segment]?.text.length ?? Infinity;
      }
    }
  }
  return pieces;
}
