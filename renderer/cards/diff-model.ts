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
  /** The line this one replaces or is replaced by, when they are alike enough to pair. */
  pair?: DiffRow;
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

/** Words split where their case changes, digit runs and punctuation: what two lines can share. */
function parts(text: string): string[] {
  return text.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\sA-Za-z\d]/g) ?? [];
}

/** Below this share of common characters two lines are different lines, not one line edited. */
export const PAIR_SIMILARITY = 0.5;

/**
 * How alike two lines are, 0 to 1: the characters of their longest common sequence of parts (words
 * split at case changes, numbers, punctuation; spaces not counted), twice, over both lines' characters.
 */
export function lineSimilarity(one: string, other: string): number {
  const a = parts(one);
  const b = parts(other);
  const total = a.join('').length + b.join('').length;
  if (total === 0) return 1;
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return 0;
  // common[j]: the most characters a common sequence of a[i..] and b[j..] holds, row by row.
  let below = new Array<number>(b.length + 1).fill(0);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = b.length - 1; j >= 0; j -= 1)
      row[j] = a[i] === b[j] ? below[j + 1]! + a[i]!.length : Math.max(below[j]!, row[j + 1]!);
    below = row;
  }
  return (2 * below[0]!) / total;
}

/** Past this many line pairs in one change, lines pair in order instead of by the best alignment. */
const MAX_ALIGNED_PAIRS = 2500;

/**
 * Which removed line each added line replaces: the in-order pairing of the most similar lines (as
 * editors and code hosts do), leaving a line unpaired when nothing is at least PAIR_SIMILARITY like it.
 */
export function alignChange(removed: readonly string[], added: readonly string[]): Array<[number, number]> {
  const similar = (i: number, j: number) => {
    const score = lineSimilarity(removed[i]!, added[j]!);
    return score >= PAIR_SIMILARITY ? score : null;
  };
  if (removed.length * added.length > MAX_ALIGNED_PAIRS) {
    const pairs: Array<[number, number]> = [];
    for (let index = 0; index < Math.min(removed.length, added.length); index += 1)
      if (similar(index, index) !== null) pairs.push([index, index]);
    return pairs;
  }
  const scores = removed.map((_, i) => added.map((__, j) => similar(i, j)));
  // best[i][j]: the highest total similarity pairing removed[i..] with added[j..] in order.
  const best = Array.from({ length: removed.length + 1 }, () => new Array<number>(added.length + 1).fill(0));
  for (let i = removed.length - 1; i >= 0; i -= 1)
    for (let j = added.length - 1; j >= 0; j -= 1) {
      const score = scores[i]![j] ?? null;
      best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, score === null ? 0 : score + best[i + 1]![j + 1]!);
    }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < removed.length && j < added.length) {
    const score = scores[i]![j] ?? null;
    if (score !== null && best[i]![j] === score + best[i + 1]![j + 1]!) pairs.push([i++, j++]);
    else if (best[i]![j] === best[i + 1]![j]) i += 1;
    else j += 1;
  }
  return pairs;
}

/** Pairs each removed line of a change with the added line that replaces it, marking the words that differ. */
function pairChange(removed: DiffRow[], added: DiffRow[]): void {
  const pairs = alignChange(
    removed.map((row) => row.text),
    added.map((row) => row.text),
  );
  for (const [i, j] of pairs) {
    const remove = removed[i]!;
    const add = added[j]!;
    remove.segments = changedSegments(remove.text, add.text);
    add.segments = changedSegments(add.text, remove.text);
    remove.pair = add;
    add.pair = remove;
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

/**
 * A change's lines side by side: each paired line beside its pair; the unpaired lines before a pair
 * (or at the end) beside each other, in order, with nothing marked in them.
 */
function sideBySide(removed: readonly DiffRow[], added: readonly DiffRow[]): SplitRow[] {
  const split: SplitRow[] = [];
  let left = 0;
  let right = 0;
  const unpaired = (untilLeft: number, untilRight: number) => {
    while (left < untilLeft || right < untilRight)
      split.push({
        kind: 'split',
        left: left < untilLeft ? removed[left++]! : null,
        right: right < untilRight ? added[right++]! : null,
      });
  };
  for (const [at, row] of removed.entries()) {
    if (!row.pair) continue;
    unpaired(at, added.indexOf(row.pair, right));
    split.push({ kind: 'split', left: removed[left++]!, right: added[right++]! });
  }
  unpaired(removed.length, added.length);
  return split;
}

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
      split.push(...sideBySide(removed, added));
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
