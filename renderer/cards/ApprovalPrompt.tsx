import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import { useActions } from '../actions.ts';
import { claimFocusOnce, focusFell, focusMessageBox, personIsWriting } from '../focus.ts';
import type { Approval } from '../store/transcript-types.ts';

// The permission gate's question, inline in the card that asks it: exactly the request's title and
// detail, and three answers. A nested Code Mode call asks inside its parent's card.
// A new question takes focus (on the question, not on a button, so an Enter meant for the message
// box answers nothing) unless the person is writing, and 1 / 2 / 3 answer it while it has focus.
// Once it is answered focus goes back to the message box.

const ANSWER_TEXT: Record<ApprovalAnswer, string> = {
  once: 'Allowed once',
  session: 'Allowed for this session',
  deny: 'Denied',
};

const KEY_ANSWERS: Record<string, ApprovalAnswer> = { '1': 'once', '2': 'session', '3': 'deny' };

export function ApprovalPrompt({ approval, cardName }: { approval: Approval; cardName: string }) {
  const actions = useActions();
  const [sent, setSent] = useState<ApprovalAnswer | null>(null);
  const question = useRef<HTMLDivElement>(null);
  const keysId = useId();
  const pending = approval.answer === undefined;
  useEffect(() => {
    if (pending && claimFocusOnce(approval.call_id) && !personIsWriting()) question.current?.focus();
    // The question gave way to its answer and took the focus with it: back to writing.
    if (!pending && focusFell()) focusMessageBox();
  }, [pending, approval.call_id]);
  const answer = (choice: ApprovalAnswer) => {
    setSent(choice);
    void actions.approve(approval.call_id, choice).then(
      (delivered) => delivered || setSent(null),
      () => setSent(null),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const choice = KEY_ANSWERS[event.key];
    if (choice === undefined || sent !== null || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    answer(choice);
  };

  if (approval.answer !== undefined) {
    return (
      <p
        className={`approval-answer answer-${approval.answer}`}
        data-testid="approval-answer"
        data-answer={approval.answer}
      >
        {ANSWER_TEXT[approval.answer]}: {approval.request.title}
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
      aria-label={`Approval needed: ${approval.request.title}`}
      aria-describedby={keysId}
      data-testid="approval"
      onKeyDown={onKeyDown}
    >
      <p className="visually-hidden" role="alert">
        Approval needed: {approval.request.title}
      </p>
      <p className="approval-title" data-testid="approval-title">
        {nested ? <span className="approval-nested">{approval.name} asks: </span> : null}
        {approval.request.title}
      </p>
      <pre className="approval-detail" data-testid="approval-detail">
        {approval.request.detail}
      </pre>
      <div className="approval-buttons">
        <button
          type="button"
          className="button primary"
          data-testid="approve-once"
          disabled={sent !== null}
          onClick={() => answer('once')}
        >
          Allow once
        </button>
        <button
          type="button"
          className="button"
          data-testid="approve-session"
          disabled={sent !== null}
          onClick={() => answer('session')}
        >
          Always for this session
        </button>
        <button
          type="button"
          className="button danger"
          data-testid="approve-deny"
          disabled={sent !== null}
          onClick={() => answer('deny')}
        >
          Deny
        </button>
        <span className="approval-keys" id={keysId}>
          Keys: 1 allow once · 2 always · 3 deny
        </span>
      </div>
    </div>
  );
}
