import {
  lineRange,
  PERSON_NOTE_LABEL,
  REVIEW_MAX_HUNKS,
  type ReviewedChange,
  type ReviewOutcome,
  type ReviewProposal,
} from '../../../protocol/review.ts';
import { ToolError } from '../tool.ts';
import { FileChangedError, writeFileAtomic } from './atomic-write.ts';
import { sha256Hex } from './file-content.ts';
import { encodeOrRefuse, type TextEncoding } from './file-encoding.ts';
import { hashVersion, readVersion } from './file-versions.ts';
import { applyChoices, lineEnding, planHunks, splitKeepingEndings, type PlannedHunk } from './review-hunks.ts';

// A write the person reviewed hunk by hunk. The proposal (the file's text then, the text the call
// would write, and the hunks between them) stays in main; the person's answer names only which
// hunks to write and the new text of edited ones, and the file is computed here from the original
// and those hunks — never taken whole from the panel. A file changed on disk since the proposal
// was shown is refused: the person reviewed a change to another text.

export interface WriteProposal extends ReviewProposal {
  hunks: PlannedHunk[];
  before: string[];
  after: string[];
  eol: string;
  /** sha256 of the bytes the proposal was computed from; null: the file did not exist. */
  baseSha256: string | null;
  encoding: TextEncoding;
}

/** Beyond this many lines in its hunks a change is asked about whole (the question's preview, with its count). */
export const REVIEW_MAX_LINES = 20_000;

/** The change as hunks; null when it has none, or is too large to show whole (REVIEW_MAX_LINES, REVIEW_MAX_HUNKS). */
export function proposeWrite(
  shown: string,
  original: string | null,
  proposed: string,
  baseSha256: string | null,
  encoding: TextEncoding,
): WriteProposal | null {
  const before = splitKeepingEndings(original ?? '');
  const after = splitKeepingEndings(proposed);
  const hunks = planHunks(before, after);
  const lines = hunks.reduce((sum, planned) => sum + planned.hunk.lines.length, 0);
  // No line changes (an empty new file, a rewrite of the same text): nothing to choose from.
  if (hunks.length === 0 || hunks.length > REVIEW_MAX_HUNKS || lines > REVIEW_MAX_LINES) return null;
  let added = 0;
  let removed = 0;
  for (const { hunk } of hunks)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  return {
    review: { path: shown, created: original === null, added, removed, hunks: hunks.map((planned) => planned.hunk) },
    hunks,
    before,
    after,
    eol: lineEnding(original ?? proposed),
    baseSha256,
    encoding,
  };
}

export interface ReviewedWrite {
  original: string;
  text: string;
  data: Buffer;
  /** sha256 of what the file holds after the write. */
  sha256: string;
  outcome: ReviewOutcome;
}

/** Writes the chosen hunks onto the file, if it is still the text the proposal was made from. */
export async function writeReviewed(
  real: string,
  shown: string,
  maxBytes: number,
  tool: string,
  reviewed: ReviewedChange<WriteProposal>,
  createFoldersWithin?: string,
): Promise<ReviewedWrite> {
  const { proposal, choice } = reviewed;
  if (choice.hunks.length !== proposal.hunks.length)
    throw new ToolError(
      `The review answered ${choice.hunks.length} hunks, but the change to ${shown} has ${proposal.hunks.length}. Nothing was written.`,
    );
  const changed = (now: string): ToolError =>
    new ToolError(
      `${shown} changed on disk after the change was shown for review (${now}), so the reviewed hunks no longer fit it. ` +
        'Nothing was written. Read the file again and propose the change anew.',
    );
  let expect = null;
  if (proposal.baseSha256 === null) {
    const there = await hashVersion(real, shown, maxBytes, tool);
    if (there) throw changed('it was created meanwhile');
  } else {
    const now = await readVersion(real, shown, maxBytes, tool).catch((error: unknown) => {
      if (error instanceof ToolError && /does not exist/.test(error.message)) return null;
      throw error;
    });
    if (!now) throw changed('it was deleted');
    const sha = sha256Hex(now.bytes);
    if (sha !== proposal.baseSha256) throw changed(`sha256 ${proposal.baseSha256} then, ${sha} now`);
    expect = now.identity;
  }
  const applied = applyChoices(
    proposal.before,
    proposal.after,
    proposal.hunks,
    choice.hunks,
    proposal.eol,
    choice.note,
  );
  const encoded = encodeOrRefuse(applied.text, proposal.encoding, shown);
  if (!encoded.ok) throw new ToolError(`${encoded.error} Nothing was written.`);
  let late: Buffer;
  try {
    late = await writeFileAtomic(real, encoded.bytes, {
      expect,
      shown,
      ...(createFoldersWithin ? { createFoldersWithin } : {}),
    });
  } catch (error) {
    if (error instanceof FileChangedError) throw changed('another program wrote to it while it was being written');
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Could not write ${shown}: ${(error as Error).message}. The file was left as it was.`);
  }
  // Lines another program appended during the rename were carried over to the end (atomic-write.ts).
  const written = late.length === 0 ? encoded.bytes : Buffer.concat([encoded.bytes, late]);
  return {
    original: proposal.before.join(''),
    text: applied.text,
    data: written,
    sha256: sha256Hex(written),
    outcome: applied.outcome,
  };
}

/** What the model reads about a reviewed write: each hunk, applied (and edited) or rejected, and the note. */
export function reviewReport(shown: string, outcome: ReviewOutcome): string {
  const lines = [
    `The person reviewed this change to ${shown} hunk by hunk: ${outcome.applied.length} of ${outcome.hunks} hunks applied, ${outcome.rejected.length} rejected.`,
  ];
  const decided = [
    ...outcome.applied.map((hunk) => ({ ...hunk, applied: true })),
    ...outcome.rejected.map((hunk) => ({ ...hunk, applied: false })),
  ].sort((a, b) => a.hunk - b.hunk);
  for (const hunk of decided) {
    const before = lineRange(hunk.old_start, hunk.old_end);
    if (!hunk.applied) {
      lines.push(`- Hunk ${hunk.hunk} (${before} of the file before): rejected, not written; that text is as it was.`);
      continue;
    }
    const now = lineRange(hunk.new_start ?? hunk.old_start, hunk.new_end ?? hunk.old_end);
    if (hunk.edited_text === undefined) {
      lines.push(`- Hunk ${hunk.hunk} (${before} before): applied as proposed; now ${now}.`);
    } else {
      lines.push(
        `- Hunk ${hunk.hunk} (${before} before): applied with the person's own text instead of the proposed one; now ${now}:`,
        '```',
        hunk.edited_text,
        '```',
      );
    }
  }
  if (outcome.note) lines.push(`${PERSON_NOTE_LABEL}${outcome.note}`);
  return lines.join('\n');
}
