import { useMemo, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import type { ReviewChoice, ReviewHunk, WriteReview } from '../../protocol/review.ts';
import { AlwaysButton } from '../cards/approval-parts.tsx';
import type { DiffStart } from '../cards/diff-model.ts';
import { DiffLines } from '../cards/PatchFileView.tsx';
import {
  applyLabel,
  editedDiff,
  hunkDiff,
  hunkStarts,
  hunkLines,
  initialStates,
  proposedText,
  reviewAnswer,
  type HunkState,
} from './review-model.ts';

// A write's approval, hunk by hunk: every hunk of the proposed change as a coloured diff (long
// ones fold with a count and open into the scrolling, virtualised view), each accepted, rejected
// or given new text, a note for the model, then one answer. Keys on a focused hunk: A accept,
// R reject, E edit, ↑/↓ the previous or next hunk; anywhere in the review, 1 writes what is
// accepted and 3 denies (not while typing in a box).

interface HunkReviewProps {
  review: WriteReview;
  locked: boolean;
  /** The narrow rules an "Always" answer adds; empty: not offered. */
  alwaysLabel: string | null;
  onAnswer: (answer: ApprovalAnswer, review?: ReviewChoice) => void;
  keysId: string;
  /** Set to this review's key handler: the question (which holds the focus when it arrives) calls it. */
  keys: MutableRefObject<((event: KeyboardEvent<HTMLElement>) => void) | null>;
}

const typing = (target: EventTarget): boolean =>
  target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement;

export function HunkReview({ review, locked, alwaysLabel, onAnswer, keysId, keys }: HunkReviewProps) {
  const [states, setStates] = useState<HunkState[]>(() => initialStates(review.hunks.length));
  const starts = useMemo(() => hunkStarts(review.hunks), [review.hunks]);
  const [editing, setEditing] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const set = (index: number, state: HunkState) =>
    setStates((all) => all.map((old, at) => (at === index ? state : old)));
  const accepted = states.filter((state) => state.accept).length;
  const apply = (answer: ApprovalAnswer) => {
    if (states.length > 0 && accepted === 0) return onAnswer('deny', reviewAnswer(states, note));
    onAnswer(answer, reviewAnswer(states, note));
  };
  const focusHunk = (index: number) => list.current?.querySelector<HTMLElement>(`[data-hunk="${index + 1}"]`)?.focus();

  keys.current = (event: KeyboardEvent<HTMLElement>) => {
    if (locked || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const hunk = (event.target as HTMLElement).closest<HTMLElement>('[data-hunk]')?.dataset['hunk'];
    const index = hunk === undefined ? -1 : Number(hunk) - 1;
    const key = event.key.toLowerCase();
    const act: Record<string, () => void> = {
      '1': () => apply('once'),
      '3': () =>
        onAnswer(
          'deny',
          reviewAnswer(
            states.map(() => ({ accept: false })),
            note,
          ),
        ),
      ...(index >= 0
        ? {
            a: () => set(index, { ...states[index], accept: true }),
            r: () => set(index, { accept: false }),
            e: () => setEditing(index),
            arrowdown: () => focusHunk(Math.min(index + 1, states.length - 1)),
            arrowup: () => focusHunk(Math.max(index - 1, 0)),
          }
        : {}),
    };
    const action = act[key];
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    action();
  };

  return (
    <div className="hunk-review" data-testid="hunk-review">
      <div className="review-bar">
        <span className="review-count" data-testid="review-count">
          {review.created ? 'New file' : 'Change'} · {review.hunks.length} hunk{review.hunks.length === 1 ? '' : 's'} ·{' '}
          <span className="stat-added">+{review.added}</span> <span className="stat-removed">−{review.removed}</span>
        </span>
        <button
          type="button"
          className="button"
          data-testid="review-accept-all"
          disabled={locked}
          onClick={() => setStates((all) => all.map((state) => ({ ...state, accept: true })))}
        >
          Accept all
        </button>
        <button
          type="button"
          className="button"
          data-testid="review-reject-all"
          disabled={locked}
          onClick={() => setStates((all) => all.map(() => ({ accept: false })))}
        >
          Reject all
        </button>
      </div>
      <ol className="review-hunks" ref={list}>
        {review.hunks.map((hunk, index) => (
          <HunkItem
            key={hunk.index}
            hunk={hunk}
            count={review.hunks.length}
            state={states[index] ?? { accept: true }}
            editing={editing === index}
            locked={locked}
            path={review.created ? undefined : review.path}
            from={starts[index]}
            last={index === review.hunks.length - 1}
            onState={(state) => set(index, state)}
            onEditing={(on) => setEditing(on ? index : null)}
          />
        ))}
      </ol>
      <label className="review-note">
        <span>Note for the model (optional)</span>
        <textarea
          data-testid="review-note"
          rows={2}
          value={note}
          maxLength={4000}
          disabled={locked}
          onChange={(event) => setNote(event.target.value)}
        />
      </label>
      <div className="approval-buttons">
        <button
          type="button"
          className={`button ${accepted === 0 ? 'danger' : 'primary'}`}
          data-testid="approve-once"
          disabled={locked || editing !== null}
          onClick={() => apply('once')}
        >
          {applyLabel(states)}
        </button>
        {alwaysLabel !== null && accepted > 0 ? (
          <AlwaysButton
            scope={alwaysLabel}
            title={`${applyLabel(states)}, and allow writes matching the same rule until this session ends`}
            disabled={locked || editing !== null}
            onClick={() => apply('session')}
          />
        ) : null}
        <button
          type="button"
          className="button danger"
          data-testid="approve-deny"
          disabled={locked}
          onClick={() =>
            onAnswer(
              'deny',
              reviewAnswer(
                states.map(() => ({ accept: false })),
                note,
              ),
            )
          }
        >
          Deny
        </button>
        <span className="approval-keys" id={keysId}>
          Keys: A accept · R reject · E edit · ↑/↓ hunks · 1 write accepted · 3 deny
        </span>
      </div>
    </div>
  );
}

interface HunkItemProps {
  hunk: ReviewHunk;
  count: number;
  state: HunkState;
  editing: boolean;
  locked: boolean;
  /** The file as it is on disk, whose unchanged lines the hunk's folds unfold; none for a new file. */
  path: string | undefined;
  /** Where the unchanged lines before this hunk begin: just after the hunk before it. */
  from: DiffStart | undefined;
  /** The last hunk: the rest of the file below it can unfold. */
  last: boolean;
  onState: (state: HunkState) => void;
  onEditing: (on: boolean) => void;
}

function HunkItem({ hunk, count, state, editing, locked, path, from, last, onState, onEditing }: HunkItemProps) {
  const [draft, setDraft] = useState(() => state.text ?? proposedText(hunk));
  const item = useRef<HTMLLIElement>(null);
  // The box closes: the focus goes back to its hunk, where A / R / E go on working.
  const close = () => {
    onEditing(false);
    item.current?.focus();
  };
  const where = hunkLines(hunk);
  const status = !state.accept ? 'rejected' : state.text !== undefined ? 'edited' : 'accepted';
  const diff = state.accept && state.text !== undefined ? editedDiff(hunk, state.text) : hunkDiff(hunk);
  return (
    <li
      ref={item}
      className={`review-hunk hunk-${status}`}
      tabIndex={0}
      data-testid="review-hunk"
      data-hunk={hunk.index}
      data-state={status}
      aria-label={`Hunk ${hunk.index} of ${count}, ${where}: ${status}`}
    >
      <div className="review-hunk-head">
        <span className="review-hunk-title">
          Hunk {hunk.index} of {count} · {where}
        </span>
        <span className={`review-hunk-state state-${status}`} data-testid="review-hunk-state">
          {status === 'accepted' ? 'will be written' : status === 'edited' ? 'edited, will be written' : 'rejected'}
        </span>
        {/* The three answers wrap together, never one apart from the others. */}
        <span className="review-hunk-actions">
          <button
            type="button"
            className="link-button"
            data-testid="review-hunk-accept"
            aria-pressed={state.accept}
            disabled={locked}
            onClick={() => onState({ ...state, accept: true })}
          >
            Accept
          </button>
          <button
            type="button"
            className="link-button"
            data-testid="review-hunk-reject"
            aria-pressed={!state.accept}
            disabled={locked}
            onClick={() => onState({ accept: false })}
          >
            Reject
          </button>
          <button
            type="button"
            className="link-button"
            data-testid="review-hunk-edit"
            aria-expanded={editing}
            disabled={locked}
            onClick={() => onEditing(!editing)}
          >
            Edit
          </button>
        </span>
      </div>
      <DiffLines diff={diff} path={path} side="old" from={from} cut={!last} />
      {editing ? (
        <div className="review-edit">
          <label>
            <span>New text for {where} (replaces the proposed lines; Esc cancels)</span>
            <textarea
              data-testid="review-hunk-text"
              autoFocus
              rows={Math.min(12, Math.max(3, draft.split('\n').length + 1))}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  event.preventDefault();
                  event.stopPropagation();
                  close();
                }
              }}
            />
          </label>
          <div className="review-edit-buttons">
            <button
              type="button"
              className="button primary"
              data-testid="review-hunk-save"
              onClick={() => {
                // The proposed text given back unchanged is no edit.
                onState(draft === proposedText(hunk) ? { accept: true } : { accept: true, text: draft });
                close();
              }}
            >
              Use this text
            </button>
            {state.text !== undefined ? (
              <button
                type="button"
                className="button"
                data-testid="review-hunk-undo-edit"
                onClick={() => {
                  setDraft(proposedText(hunk));
                  onState({ accept: state.accept });
                  close();
                }}
              >
                Back to the proposed text
              </button>
            ) : null}
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}
