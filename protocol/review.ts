import { z } from 'zod';

// Review before a write lands: the hunks of a proposed write_file or patch_file change, shown with
// its approval question; the person's choice per hunk (accept, reject, or accept with new text);
// and what was applied and rejected, for the model's result and the card.

/** The most hunks one review offers and one answer may carry (a larger change is asked about whole). */
export const REVIEW_MAX_HUNKS = 500;
/** The most characters of a person's note. */
export const REVIEW_NOTE_CHARS = 4000;
/** The most characters of one hunk's edited text. */
export const REVIEW_EDIT_CHARS = 4_000_000;

export const reviewHunkSchema = z.strictObject({
  /** 1-based. */
  index: z.number().int().min(1),
  /** 1-based first line of the hunk in the file as it is (its context included); 0 for an empty file. */
  old_start: z.number().int().min(0),
  old_lines: z.number().int().min(0),
  /** 1-based first line of the hunk in the file as proposed. */
  new_start: z.number().int().min(0),
  new_lines: z.number().int().min(0),
  /** The hunk's lines, each with its sign: ' ' context, '-' removed, '+' added (no line endings). */
  lines: z.array(z.string()),
});
export type ReviewHunk = z.infer<typeof reviewHunkSchema>;

/** A proposed change as the approval shows it: every hunk, whole. */
export const writeReviewSchema = z.strictObject({
  path: z.string(),
  /** The file does not exist yet. */
  created: z.boolean(),
  added: z.number().int(),
  removed: z.number().int(),
  hunks: z.array(reviewHunkSchema).max(REVIEW_MAX_HUNKS),
});
export type WriteReview = z.infer<typeof writeReviewSchema>;

/** One hunk's answer: write it or not; `new_text` replaces its lines from its first change to its last. */
export const hunkChoiceSchema = z.strictObject({
  accept: z.boolean(),
  new_text: z.string().max(REVIEW_EDIT_CHARS).optional(),
});
export type HunkChoice = z.infer<typeof hunkChoiceSchema>;

/** The person's review: a choice for every hunk, in order, and a note for the model. */
export const reviewChoiceSchema = z.strictObject({
  hunks: z.array(hunkChoiceSchema).max(REVIEW_MAX_HUNKS),
  note: z.string().max(REVIEW_NOTE_CHARS).optional(),
});
export type ReviewChoice = z.infer<typeof reviewChoiceSchema>;

/**
 * A change a tool proposes for review before it runs: the hunks the question shows, and whatever
 * else the tool keeps to write the chosen ones (a write's original text and encoding).
 */
export interface ReviewProposal {
  review: WriteReview;
}

/** The proposal and the person's choice of its hunks, as the tool's execute gets them. */
export interface ReviewedChange<Proposal extends ReviewProposal = ReviewProposal> {
  proposal: Proposal;
  choice: ReviewChoice;
}

/** A hunk as it was decided: its lines in the file before and, when applied, after the write. */
export const reviewedHunkSchema = z.strictObject({
  hunk: z.number().int().min(1),
  /** 1-based, inclusive: the lines it covered in the file before the write (old_start..old_end). */
  old_start: z.number().int(),
  old_end: z.number().int(),
  /** Applied hunks: the lines they now are in the written file. */
  new_start: z.number().int().optional(),
  new_end: z.number().int().optional(),
  /** The person's own text for the hunk's changed lines. */
  edited_text: z.string().optional(),
});
export type ReviewedHunk = z.infer<typeof reviewedHunkSchema>;

/** What a reviewed write applied and left out, and the person's note. */
export const reviewOutcomeSchema = z.strictObject({
  hunks: z.number().int(),
  applied: z.array(reviewedHunkSchema),
  rejected: z.array(reviewedHunkSchema),
  note: z.string().optional(),
});
export type ReviewOutcome = z.infer<typeof reviewOutcomeSchema>;

/** How what the model reads of a reviewed write introduces the person's note. */
export const PERSON_NOTE_LABEL = 'Note from the person: ';

/** The person's note at the end of a write's denial text, when it has one. */
export function noteOfDenial(text: string): string | undefined {
  const at = text.lastIndexOf(PERSON_NOTE_LABEL);
  const note = at < 0 ? '' : text.slice(at + PERSON_NOTE_LABEL.length).trim();
  return note === '' ? undefined : note;
}

/** The denial when every hunk was rejected: which ones, where, and the note. */
export function rejectedEverything(review: WriteReview, note: string | undefined): string {
  const hunks = review.hunks.map((hunk) => {
    // The changed stretch: from the first line that is not context to the last.
    const first = hunk.lines.findIndex((line) => !line.startsWith(' '));
    const last = hunk.lines.findLastIndex((line) => !line.startsWith(' '));
    const span = hunk.lines.slice(first, last + 1);
    const start = hunk.old_start + first;
    const oldLines = span.filter((line) => !line.startsWith('+')).length;
    return `hunk ${hunk.index} (${lineRange(start, start + oldLines - 1)})`;
  });
  const count = `${review.hunks.length} hunk${review.hunks.length === 1 ? '' : 's'}`;
  return (
    `Denied by the user: every hunk of the change to ${review.path} was rejected (${count}: ${hunks.join(', ')}). Nothing was written.` +
    (note && note.trim() !== '' ? ` ${PERSON_NOTE_LABEL}${note.trim()}` : '')
  );
}

/** `lines 3–5`, `line 3`, or `after line 2` for a hunk that only adds lines. */
export function lineRange(start: number, end: number): string {
  if (end < start) return start <= 1 ? 'at the start' : `after line ${start - 1}`;
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

/** "2 hunks: 1 applied, 1 rejected" (and how many of the applied were edited). */
export function reviewSummaryLine(outcome: ReviewOutcome): string {
  const edited = outcome.applied.filter((hunk) => hunk.edited_text !== undefined).length;
  const hunks = `${outcome.hunks} hunk${outcome.hunks === 1 ? '' : 's'}`;
  return `${hunks}: ${outcome.applied.length} applied${edited > 0 ? ` (${edited} edited)` : ''}, ${outcome.rejected.length} rejected`;
}
