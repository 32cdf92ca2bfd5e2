import type { ReviewChoice, ReviewHunk } from '../../protocol/review.ts';
import type { DiffStart } from '../cards/diff-model.ts';

// The review of a write in the panel: each hunk's diff as the diff view reads it, its changed
// stretch (what an edit replaces), the person's choice per hunk, and the answer sent to main —
// only which hunks and the new text of edited ones; main computes the file.

export type HunkState = { accept: boolean; text?: string };

/** The hunk as a unified diff the diff view reads (`@@` header, then its lines). */
export function hunkDiff(hunk: ReviewHunk): string {
  return `@@ -${hunk.old_start},${hunk.old_lines} +${hunk.new_start},${hunk.new_lines} @@\n${hunk.lines.join('\n')}\n`;
}

/**
 * Where each hunk's unchanged lines before it begin when the hunks are shown apart: line 1 for the
 * first, the line after the hunk before it for the others (so a fold never counts another hunk's lines).
 */
export function hunkStarts(hunks: readonly ReviewHunk[]): (DiffStart | undefined)[] {
  return hunks.map((_hunk, index) => {
    const before = hunks[index - 1];
    return before ? { old: before.old_start + before.old_lines, new: before.new_start + before.new_lines } : undefined;
  });
}

/** Index of the hunk's first and last line that is not context. */
function changedBounds(hunk: ReviewHunk): { first: number; last: number } {
  const first = hunk.lines.findIndex((line) => !line.startsWith(' '));
  const last = hunk.lines.findLastIndex((line) => !line.startsWith(' '));
  return { first: Math.max(first, 0), last: Math.max(last, first) };
}

/** The proposed new text of the hunk's changed stretch: what the edit box starts with. */
export function proposedText(hunk: ReviewHunk): string {
  const { first, last } = changedBounds(hunk);
  return hunk.lines
    .slice(first, last + 1)
    .filter((line) => !line.startsWith('-'))
    .map((line) => line.slice(1))
    .join('\n');
}

/** The hunk with the person's text in place of its changed stretch, for the diff view. */
export function editedDiff(hunk: ReviewHunk, text: string): string {
  const { first, last } = changedBounds(hunk);
  const removed = hunk.lines
    .slice(first, last + 1)
    .filter((line) => !line.startsWith('+'))
    .map((line) => `-${line.slice(1)}`);
  const typed = text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const lines = [
    ...hunk.lines.slice(0, first),
    ...removed,
    ...typed.map((line) => `+${line}`),
    ...hunk.lines.slice(last + 1),
  ];
  const oldLines = lines.filter((line) => !line.startsWith('+')).length;
  const newLines = lines.filter((line) => !line.startsWith('-')).length;
  return hunkDiff({ ...hunk, lines, old_lines: oldLines, new_lines: newLines });
}

/** The old lines a hunk changes, as a person names them: `lines 3–5`, `line 3`, `after line 2`. */
export function hunkLines(hunk: ReviewHunk): string {
  const { first, last } = changedBounds(hunk);
  const start = Math.max(hunk.old_start, 1) + first;
  const count = hunk.lines.slice(first, last + 1).filter((line) => !line.startsWith('+')).length;
  if (count === 0) return start <= 1 ? 'at the start' : `after line ${start - 1}`;
  return count === 1 ? `line ${start}` : `lines ${start}–${start + count - 1}`;
}

export function initialStates(count: number): HunkState[] {
  return Array.from({ length: count }, () => ({ accept: true }));
}

/**
 * The answer for main: undefined when every hunk is accepted as proposed and there is no note
 * (the write goes as the model asked), else the choice per hunk and the note.
 */
export function reviewAnswer(states: readonly HunkState[], note: string): ReviewChoice | undefined {
  const untouched = states.every((state) => state.accept && state.text === undefined);
  if (untouched && note.trim() === '') return undefined;
  return {
    hunks: states.map((state) =>
      state.accept && state.text !== undefined ? { accept: true, new_text: state.text } : { accept: state.accept },
    ),
    ...(note.trim() === '' ? {} : { note: note.trim() }),
  };
}

/** "Write 1 of 2 hunks", or what the main button does when none is accepted. */
export function applyLabel(states: readonly HunkState[]): string {
  const accepted = states.filter((state) => state.accept).length;
  if (accepted === 0) return 'Reject the change';
  if (accepted === states.length) return states.length === 1 ? 'Write the change' : `Write all ${states.length} hunks`;
  return `Write ${accepted} of ${states.length} hunks`;
}
