import type { HunkChoice, ReviewedHunk, ReviewHunk, ReviewOutcome } from '../../../protocol/review.ts';
import { changedBlocks, type Block } from './line-diff.ts';

// The hunks of a proposed change, and the file that results from the hunks a person chose. Lines
// keep their endings, so a hunk written or left out keeps every byte of the lines around it; the
// hunks are computed on whole lines of the text as it is and as proposed, with 3 lines of context.

export const REVIEW_CONTEXT = 3;

/** A hunk with where it lies: [oldStart, oldEnd) of the lines as they are, [newStart, newEnd) as proposed. */
export interface PlannedHunk {
  hunk: ReviewHunk;
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
  /** Context lines before its first change and after its last. */
  lead: number;
  trail: number;
}

/** Lines with their endings (`\n` or `\r\n`); the last may have none. */
export function splitKeepingEndings(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline + 1;
    lines.push(text.slice(start, stop));
    start = stop;
  }
  return lines;
}

const bare = (line: string): string => line.replace(/\r?\n$/, '');

/** The hunks from `before` to `after` (both split by splitKeepingEndings). */
export function planHunks(
  before: readonly string[],
  after: readonly string[],
  context = REVIEW_CONTEXT,
): PlannedHunk[] {
  const groups: Block[][] = [];
  for (const block of changedBlocks(before, after)) {
    const group = groups.at(-1);
    const previous = group?.at(-1);
    if (group && previous && block.oldStart - previous.oldEnd <= 2 * context) group.push(block);
    else groups.push([block]);
  }
  return groups.map((group, index) => {
    const first = group[0]!;
    const last = group.at(-1)!;
    const lead = Math.min(context, first.oldStart);
    const trail = Math.min(context, before.length - last.oldEnd);
    const oldStart = first.oldStart - lead;
    const newStart = first.newStart - lead;
    const lines: string[] = [];
    for (let line = oldStart; line < first.oldStart; line += 1) lines.push(` ${bare(before[line]!)}`);
    group.forEach((block, at) => {
      for (let line = block.oldStart; line < block.oldEnd; line += 1) lines.push(`-${bare(before[line]!)}`);
      for (let line = block.newStart; line < block.newEnd; line += 1) lines.push(`+${bare(after[line]!)}`);
      const next = group[at + 1];
      const until = next ? next.oldStart : block.oldEnd + trail;
      for (let line = block.oldEnd; line < until; line += 1) lines.push(` ${bare(before[line]!)}`);
    });
    const oldEnd = last.oldEnd + trail;
    const newEnd = last.newEnd + trail;
    return {
      hunk: {
        index: index + 1,
        old_start: before.length === 0 ? 0 : oldStart + 1,
        old_lines: oldEnd - oldStart,
        new_start: after.length === 0 ? 0 : newStart + 1,
        new_lines: newEnd - newStart,
        lines,
      },
      oldStart,
      oldEnd,
      newStart,
      newEnd,
      lead,
      trail,
    };
  });
}

/** The line ending a file uses: its first line's. */
export function lineEnding(text: string): '\n' | '\r\n' {
  const newline = text.indexOf('\n');
  return newline > 0 && text.charCodeAt(newline - 1) === 13 ? '\r\n' : '\n';
}

/** The person's text for a hunk's changed lines, as lines with the file's endings. */
function editedLines(text: string, eol: string, endsWithout: boolean): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  // A trailing line break typed in the box means the same as none: the lines end where the hunk's did.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((line, index) => (index === lines.length - 1 && endsWithout ? line : line + eol));
}

export interface AppliedReview {
  text: string;
  outcome: ReviewOutcome;
}

/** The file from the lines as they are and the chosen hunks (one choice per hunk, in order). */
export function applyChoices(
  before: readonly string[],
  after: readonly string[],
  hunks: readonly PlannedHunk[],
  choices: readonly HunkChoice[],
  eol: string,
  note?: string,
): AppliedReview {
  const out: string[] = [];
  const applied: ReviewedHunk[] = [];
  const rejected: ReviewedHunk[] = [];
  let at = 0;
  hunks.forEach((planned, index) => {
    const choice = choices[index] ?? { accept: false };
    out.push(...before.slice(at, planned.oldStart));
    const spanStart = planned.oldStart + planned.lead;
    const spanEnd = planned.oldEnd - planned.trail;
    const old = { hunk: planned.hunk.index, old_start: spanStart + 1, old_end: spanEnd };
    if (!choice.accept) {
      out.push(...before.slice(planned.oldStart, planned.oldEnd));
      rejected.push(old);
    } else {
      out.push(...before.slice(planned.oldStart, spanStart));
      const proposed = after.slice(planned.newStart + planned.lead, planned.newEnd - planned.trail);
      const lastProposed = proposed.at(-1) ?? before[spanEnd - 1] ?? '';
      const endsWithout = planned.trail === 0 && planned.oldEnd === before.length && !lastProposed.endsWith('\n');
      const span = choice.new_text === undefined ? proposed : editedLines(choice.new_text, eol, endsWithout);
      const newStart = out.length + 1;
      out.push(...span);
      applied.push({
        ...old,
        new_start: newStart,
        new_end: newStart + span.length - 1,
        ...(choice.new_text === undefined ? {} : { edited_text: choice.new_text }),
      });
      out.push(...before.slice(spanEnd, planned.oldEnd));
    }
    at = planned.oldEnd;
  });
  out.push(...before.slice(at));
  const outcome: ReviewOutcome = {
    hunks: hunks.length,
    applied,
    rejected,
    ...(note !== undefined && note.trim() !== '' ? { note: note.trim() } : {}),
  };
  return { text: out.join(''), outcome };
}

const ECHO_EDIT_CHARS = 600;

/** The card's copy of a review: edited texts cut to a few lines (the model's result has them whole). */
export function echoedReview(review: ReviewOutcome): ReviewOutcome {
  return { ...review, applied: review.applied.map((hunk) => ({ ...hunk, ...cutEdit(hunk.edited_text) })) };
}

/** An edited text for the card: its start, marked when cut. */
function cutEdit(text: string | undefined): { edited_text?: string } {
  if (text === undefined) return {};
  if (text.length <= ECHO_EDIT_CHARS) return { edited_text: text };
  return { edited_text: `${text.slice(0, ECHO_EDIT_CHARS)}\n… (${text.length - ECHO_EDIT_CHARS} more characters)` };
}
