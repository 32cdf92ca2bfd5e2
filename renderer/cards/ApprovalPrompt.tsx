import { useRef, useState } from 'react';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import { useActions } from '../actions.ts';
import { useRefocusOnChange } from '../focus.ts';
import type { Approval } from '../store/transcript-types.ts';

// The permission gate's question, inline in the card that asks it: exactly the request's title and
// detail, and three answers. A nested Code Mode call asks inside its parent's card.

const ANSWER_TEXT: Record<ApprovalAnswer, string> = {
  once: 'Allowed once',
  session: 'Allowed for this session',
  deny: 'Denied',
};

export function ApprovalPrompt({ approval, cardName }: { approval: Approval; cardName: string }) {
  const actions = useActions();
  const [sent, setSent] = useState<ApprovalAnswer | null>(null);
  const answered = useRef<HTMLParagraphElement>(null);
  // The buttons the person answered with give way to the answer; focus goes to it, not to the page.
  useRefocusOnChange(approval.answer, answered, approval.answer !== undefined && sent !== null);
  const answer = (choice: ApprovalAnswer) => {
    setSent(choice);
    void actions.approve(approval.call_id, choice).then(
      (delivered) => delivered || setSent(null),
      () => setSent(null),
    );
  };

  if (approval.answer !== undefined) {
    return (
      <p
        ref={answered}
        tabIndex={-1}
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
      className="approval"
      role="group"
      aria-label={`Approval needed: ${approval.request.title}`}
      data-testid="approval"
    >
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
      </div>
    </div>
  );
}
