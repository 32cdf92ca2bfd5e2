import { reviewSummaryLine, type ReviewedHunk, type ReviewOutcome } from '../../protocol/review.ts';
import { SafeText } from '../text/SafeText.tsx';

// What a write reviewed hunk by hunk did, on its card (live and after a reload, from the echo):
// "2 hunks: 1 applied, 1 rejected", each hunk with the lines it covered, the text the person gave
// an edited one, and their note.

function lineRange(start: number, end: number): string {
  if (end < start) return start <= 1 ? 'at the start' : `after line ${start - 1}`;
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

function HunkLine({ hunk, applied }: { hunk: ReviewedHunk; applied: boolean }) {
  const state = !applied ? 'rejected' : hunk.edited_text !== undefined ? 'edited' : 'applied';
  const now =
    applied && hunk.new_start !== undefined && hunk.new_end !== undefined
      ? `, now ${lineRange(hunk.new_start, hunk.new_end)}`
      : '';
  return (
    <li className={`review-outcome-hunk outcome-${state}`} data-testid="review-outcome-hunk" data-state={state}>
      Hunk {hunk.hunk} ({lineRange(hunk.old_start, hunk.old_end)}):{' '}
      {state === 'rejected'
        ? 'rejected, not written'
        : state === 'edited'
          ? `written with your text${now}`
          : `written${now}`}
      {hunk.edited_text !== undefined ? (
        <pre className="review-outcome-text">
          <SafeText text={hunk.edited_text} />
        </pre>
      ) : null}
    </li>
  );
}

export function ReviewOutcomeView({ review }: { review: ReviewOutcome }) {
  const hunks = [
    ...review.applied.map((hunk) => ({ hunk, applied: true })),
    ...review.rejected.map((hunk) => ({ hunk, applied: false })),
  ].sort((a, b) => a.hunk.hunk - b.hunk.hunk);
  return (
    <div className="review-outcome" data-testid="review-outcome">
      <p className="card-meta" data-testid="review-summary">
        Reviewed: {reviewSummaryLine(review)}
      </p>
      <ul className="review-outcome-hunks">
        {hunks.map(({ hunk, applied }) => (
          <HunkLine key={hunk.hunk} hunk={hunk} applied={applied} />
        ))}
      </ul>
      {review.note ? (
        <p className="review-outcome-note" data-testid="review-outcome-note">
          Your note: <SafeText text={review.note} />
        </p>
      ) : null}
    </div>
  );
}
