import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import type { ReviewChoice } from '../../protocol/review.ts';
import { HunkReview } from '../review/HunkReview.tsx';
import { useActions } from '../actions.ts';
import { describeAlwaysRules } from './always-scope.ts';
import { AlwaysButton, OfflineNote } from './approval-parts.tsx';
import { CommandPreview } from './CommandPreview.tsx';
import { claimFocusOnce, focusFell, focusMessageBox, focusWhenShown, releaseFocusClaim } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import type { Approval } from '../store/transcript-types.ts';
import { revealText } from '../text/safe-text.ts';
import { SafeText } from '../text/SafeText.tsx';

// The permission gate's question, inline in the card that asks it: exactly the request's title and
// detail (invisible and bidi characters shown as marks), why the path is sensitive when it is, and
// the answers: once, always for the narrow rules the gate offers (`exec(npm test)`; not offered for
// a protected path), deny. A nested Code Mode call asks inside its parent's card.
// A new question takes focus (on the question, not on a button, so an Enter meant for the message
// box answers nothing) unless the person is writing, and 1 / 2 / 3 answer it while it has focus.
// Once it is answered focus goes back to the message box.

const ANSWER_TEXT: Record<Exclude<ApprovalAnswer, 'deny'>, string> = {
  once: 'Allowed once',
  session: 'Always allowed in this session',
};

/**
 * A denial, said once and calmly: it is the person's choice, not a failure. A write under review
 * names its file (`You rejected the change to a.md`) and the person's note, when they left one.
 */
function Denial({ approval, note }: { approval: Approval; note: string | undefined }) {
  const path = approval.request.review?.path;
  return (
    <>
      {path === undefined ? (
        <>
          You denied: <SafeText text={approval.request.title} />
        </>
      ) : (
        <>
          You rejected the change to <SafeText text={path} />
        </>
      )}
      {note === undefined ? null : (
        <span className="approval-answer-note" data-testid="approval-answer-note">
          {' '}
          · Your note: <SafeText text={note} />
        </span>
      )}
    </>
  );
}

const KEY_ANSWERS: Record<string, ApprovalAnswer> = { '1': 'once', '2': 'session', '3': 'deny' };

export function ApprovalPrompt({
  approval,
  cardName,
  denialNote,
}: {
  approval: Approval;
  cardName: string;
  /** The person's note on a write they rejected whole, from the call's result. */
  denialNote?: string | undefined;
}) {
  const actions = useActions();
  const [sent, setSent] = useState<ApprovalAnswer | null>(null);
  const question = useRef<HTMLDivElement>(null);
  const reviewKeys = useRef<((event: KeyboardEvent<HTMLElement>) => void) | null>(null);
  const keysId = useId();
  const pending = approval.answer === undefined;
  const always = approval.request.always_rules ?? [];
  // An answer cannot reach the gate while the host is out of reach: the buttons wait for it.
  const offline = usePanel((state) => state.connection === 'disconnected');
  const locked = sent !== null || offline;
  useEffect(() => {
    // The question gave way to its answer and took the focus with it: back to writing.
    if (!pending) {
      if (focusFell()) focusMessageBox();
      return;
    }
    const id = approval.call_id;
    if (!question.current || !claimFocusOnce(id)) return;
    const cancel = focusWhenShown(question.current);
    // Unmounted before it could take focus (StrictMode's trial mount): the next mount may try again.
    return () => {
      if (cancel()) releaseFocusClaim(id);
    };
  }, [pending, approval.call_id]);
  const answer = (choice: ApprovalAnswer, review?: ReviewChoice) => {
    setSent(choice);
    void actions.approve(approval.call_id, choice, review).then(
      (delivered) => delivered || setSent(null),
      () => setSent(null),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // A write under review answers through its own keys (HunkReview).
    if (approval.request.review) return reviewKeys.current?.(event);
    const choice = KEY_ANSWERS[event.key];
    if (choice === 'session' && always.length === 0) return;
    if (choice === undefined || locked || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    answer(choice);
  };

  if (approval.answer !== undefined) {
    return (
      <p
        className={`approval-answer answer-${approval.stopped ? 'stopped' : approval.answer}`}
        data-testid="approval-answer"
        data-answer={approval.stopped ? 'stopped' : approval.answer}
      >
        {approval.stopped ? (
          <>
            Stopped before approval: <SafeText text={approval.request.title} />
          </>
        ) : approval.answer === 'deny' ? (
          <Denial approval={approval} note={denialNote} />
        ) : (
          <>
            {ANSWER_TEXT[approval.answer]}: <SafeText text={approval.request.title} />
          </>
        )}
      </p>
    );
  }
  const nested = approval.name !== cardName;
  return (
    <div
      ref={question}
      className="approval"
      role="group"
      tabIndex={-1}
      aria-label={`Approval needed: ${revealText(approval.request.title)}`}
      aria-describedby={keysId}
      data-testid="approval"
      onKeyDown={onKeyDown}
    >
      <p className="visually-hidden" role="alert">
        Approval needed: {revealText(approval.request.title)}
        {approval.request.warning ? `. ${approval.request.warning}` : ''}
      </p>
      <p className="approval-title" data-testid="approval-title">
        {nested ? <span className="approval-nested">{approval.name} asks: </span> : null}
        <SafeText text={approval.request.title} />
      </p>
      {approval.request.warning ? (
        <p className="approval-warning" data-testid="approval-warning">
          <SafeText text={approval.request.warning} />
        </p>
      ) : null}
      {approval.request.review ? (
        <HunkReview
          review={approval.request.review}
          locked={locked}
          alwaysLabel={always.length > 0 ? revealText(describeAlwaysRules(always)) : null}
          onAnswer={answer}
          keysId={keysId}
          keys={reviewKeys}
        />
      ) : (
        answerButtons()
      )}
      {approval.request.review && offline ? <OfflineNote /> : null}
    </div>
  );

  function answerButtons() {
    return (
      <>
        <pre className="approval-detail" data-testid="approval-detail">
          <SafeText text={approval.request.detail} />
        </pre>
        <div className="approval-buttons">
          <button
            type="button"
            className="button primary"
            data-testid="approve-once"
            disabled={locked}
            onClick={() => answer('once')}
          >
            Allow once
          </button>
          {always.length > 0 ? (
            <AlwaysButton
              scope={revealText(describeAlwaysRules(always))}
              title={`Allow every call matching ${revealText(always.join(', '))} until this session ends`}
              disabled={locked}
              onClick={() => answer('session')}
            />
          ) : null}
          <button
            type="button"
            className="button danger"
            data-testid="approve-deny"
            disabled={locked}
            onClick={() => answer('deny')}
          >
            Deny
          </button>
          {approval.request.preview ? (
            <CommandPreview callId={approval.call_id} locked={locked} onRun={() => answer('once')} />
          ) : approval.request.preview_unavailable ? (
            <p className="card-note" data-testid="preview-unavailable">
              <SafeText text={approval.request.preview_unavailable} />
            </p>
          ) : null}
          {offline ? <OfflineNote /> : null}
          <span className="approval-keys" id={keysId}>
            {always.length > 0 ? 'Keys: 1 allow once · 2 always · 3 deny' : 'Keys: 1 allow once · 3 deny'}
          </span>
        </div>
      </>
    );
  }
}
