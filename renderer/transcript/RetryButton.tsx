import { useEffect, useState } from 'react';
import { clockTime } from '../store/meter.ts';
import { useActions } from '../actions.ts';
import { focusMessageBox } from '../focus.ts';
import { usePanel } from '../store/store.ts';

// Retry on the error that ended the last turn (a refused key, an overloaded model, a stream cut
// short): it sends the person's message of that turn again as a new turn. Offered only for the
// newest turn, and only while nothing runs. A request refused for a rate limit is offered again
// once the limit resets: until then the button says when.

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

/** Whether the time has passed, kept true from the moment it does. */
function usePassed(iso: string | undefined): boolean {
  const at = iso === undefined ? Number.NaN : Date.parse(iso);
  const [passed, setPassed] = useState(() => !(at > Date.now()));
  useEffect(() => {
    if (!(at > Date.now())) {
      setPassed(true);
      return;
    }
    setPassed(false);
    const timer = setTimeout(() => setPassed(true), at - Date.now() + 50);
    return () => clearTimeout(timer);
  }, [at]);
  return passed;
}

export function RetryButton({ turnId, retryAt }: { turnId: string; retryAt?: string }) {
  const actions = useActions();
  const text = useRetryText(turnId);
  const [sending, setSending] = useState(false);
  const ready = usePassed(retryAt);
  if (text === null) return null;
  const waiting = !ready && retryAt !== undefined;
  return (
    <button
      type="button"
      className="button small retry-button"
      data-testid="turn-retry"
      disabled={sending || waiting}
      aria-label={
        waiting ? `Retry at ${clockTime(retryAt)}, when the rate limit resets` : 'Retry: send your message again'
      }
      onClick={() => {
        setSending(true);
        // The button goes with the failed turn: focus returns to the message box.
        void actions.send(text).finally(() => {
          setSending(false);
          focusMessageBox();
        });
      }}
    >
      {waiting ? `Retry at ${clockTime(retryAt)}` : 'Retry'}
    </button>
  );
}
