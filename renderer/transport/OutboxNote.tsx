import { usePanel } from '../store/store.ts';
import { cancelOutbox, outboxText } from './outbox.ts';

// Above the message box while a message waits for the connection: what it is, that it was not sent
// yet, and Cancel.

const PREVIEW_CHARS = 80;

export function OutboxNote() {
  const waiting = usePanel((state) => state.outbox);
  if (!waiting) return null;
  const text = outboxText(waiting);
  const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  return (
    <div className="banner banner-warning outbox" role="status" data-testid="outbox">
      <span className="banner-text">
        <strong>Not sent — reconnecting.</strong> “{preview}” goes as soon as the connection is back.
      </span>
      <button type="button" className="button small" data-testid="outbox-cancel" onClick={() => cancelOutbox(usePanel)}>
        Cancel
      </button>
    </div>
  );
}
