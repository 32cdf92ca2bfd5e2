import { useState } from 'react';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// Retry on the error that ended the last turn (a refused key, an overloaded model, a stream cut
// short): it sends the person's message of that turn again as a new turn. Offered only for the
// newest turn, and only while nothing runs.

/** The text to send again, when the turn that failed is the newest one and nothing runs now. */
function useRetryText(turnId: string): string | null {
  return usePanel((state) => {
    const { transcript } = state;
    if (transcript.activeTurnId !== null) return null;
    const user = transcript.messages[`user:${turnId}`];
    if (!user || user.kind !== 'user') return null;
    // A later message of the person's means the conversation has moved on.
    for (let i = transcript.order.length - 1; i >= 0; i--) {
      const item = transcript.order[i];
      if (item?.kind !== 'message') continue;
      const message = transcript.messages[item.id];
      if (message?.kind === 'user') return message.turn_id === turnId ? user.text : null;
    }
    return null;
  });
}

export function RetryButton({ turnId }: { turnId: string }) {
  const actions = useActions();
  const text = useRetryText(turnId);
  const [sending, setSending] = useState(false);
  if (text === null) return null;
  return (
    <button
      type="button"
      className="button small retry-button"
      data-testid="turn-retry"
      disabled={sending}
      aria-label="Retry: send your message again"
      onClick={() => {
        setSending(true);
        void actions.send(text).finally(() => setSending(false));
      }}
    >
      Retry
    </button>
  );
}
