import { useState, type KeyboardEvent } from 'react';
import type { QueuedMessage } from '../../protocol/queue.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import '../styles/queue.css';

// The messages sent while a turn ran and not delivered yet, above the message box: a steer waits
// for the turn's next safe point, a queued message for its end. Each can be edited, moved and
// removed until it goes; after Stop they are held, and Send now lets them go.

export function QueueList() {
  const queue = usePanel((state) => state.transcript.queue);
  const running = usePanel((state) => state.transcript.activeTurnId !== null);
  const viewOnly = usePanel((state) => state.viewOnly);
  const actions = useActions();
  if (queue.items.length === 0) return null;
  const count = queue.items.length;
  return (
    <section className="queue-list" aria-label="Waiting messages" data-testid="queue-list">
      <div className="queue-head">
        <span className="queue-title" data-testid="queue-title">
          {count} waiting{queue.held ? ' · held' : ''}
        </span>
        {viewOnly ? null : queue.held ? (
          <button
            type="button"
            className="button small primary"
            data-testid="queue-send-now"
            onClick={() => void actions.sendQueued()}
          >
            Send now
          </button>
        ) : running ? (
          <button
            type="button"
            className="button small"
            data-testid="queue-hold"
            title="Keep them until you press Send now"
            onClick={() => void actions.holdQueued()}
          >
            Hold
          </button>
        ) : null}
      </div>
      <ol className="queue-items">
        {queue.items.map((item, index) => (
          <QueueItem key={item.id} item={item} index={index} count={count} readOnly={viewOnly} />
        ))}
      </ol>
    </section>
  );
}

function QueueItem({
  item,
  index,
  count,
  readOnly,
}: {
  item: QueuedMessage;
  index: number;
  count: number;
  readOnly: boolean;
}) {
  const actions = useActions();
  const [editing, setEditing] = useState<string | null>(null);
  const place = `waiting message ${index + 1}`;
  const save = async () => {
    if (editing === null) return;
    if (editing.trim() === '') return;
    if (editing === item.text || (await actions.editQueued(item.id, editing))) setEditing(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Handled here: Esc leaves the edit and does not stop the turn (app.tsx skips a prevented Esc).
      event.preventDefault();
      setEditing(null);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void save();
    }
  };
  return (
    <li className="queue-item" data-testid="queue-item" data-mode={item.mode}>
      <span className={`queue-mode queue-mode-${item.mode}`}>{item.mode === 'steer' ? 'steer' : `${index + 1}`}</span>
      {editing === null ? (
        <span className="queue-text" title={item.text} data-testid="queue-text">
          {item.text}
        </span>
      ) : (
        <textarea
          className="queue-edit"
          data-testid="queue-edit"
          aria-label={`Edit ${place}`}
          rows={2}
          autoFocus
          value={editing}
          onChange={(event) => setEditing(event.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      {readOnly ? null : (
        <span className="queue-actions">
          {editing === null ? (
            <>
              <button
                type="button"
                className="button small icon"
                data-testid="queue-edit-button"
                aria-label={`Edit ${place}`}
                onClick={() => setEditing(item.text)}
              >
                ✎
              </button>
              <button
                type="button"
                className="button small icon"
                data-testid="queue-up"
                aria-label={`Move ${place} up`}
                disabled={index === 0}
                onClick={() => void actions.moveQueued(item.id, index - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="button small icon"
                data-testid="queue-down"
                aria-label={`Move ${place} down`}
                disabled={index === count - 1}
                onClick={() => void actions.moveQueued(item.id, index + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="button small icon"
                data-testid="queue-remove"
                aria-label={`Remove ${place}`}
                onClick={() => void actions.removeQueued(item.id)}
              >
                ✕
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button small primary"
                data-testid="queue-save"
                disabled={editing.trim() === ''}
                onClick={() => void save()}
              >
                Save
              </button>
              <button type="button" className="button small" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </>
          )}
        </span>
      )}
    </li>
  );
}
