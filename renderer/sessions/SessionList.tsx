import { useEffect, useRef, useState } from 'react';
import type { SessionSummary } from '../../protocol/api.ts';
import { useActions } from '../actions.ts';
import { useRefocusOnChange } from '../focus.ts';
import { usePanel } from '../store/store.ts';

// Old sessions, newest first: open one (its cards are rebuilt from its log), start a new one, or
// delete one after a second click (an inline confirmation, no modal dialog). The list is fetched
// again each time it opens, so sessions the CLI or another window wrote meanwhile are there.
// Opening it moves focus into it; ✕ (or Esc, see app.tsx) closes it and focus goes back to ☰.

const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dates.format(time);
}

function SessionItem({ session, current }: { session: SessionSummary; current: boolean }) {
  const actions = useActions();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  // ✕ and its confirmation replace each other under the focus: it moves to the one now shown.
  useRefocusOnChange(confirming, confirming ? confirmButton : deleteButton);
  const title = session.title || session.id;
  return (
    <li className={`session-item${current ? ' current' : ''}`} data-testid="session-item" data-session-id={session.id}>
      <button
        type="button"
        className="session-open"
        data-testid="session-open"
        aria-current={current ? 'true' : undefined}
        onClick={() => void actions.openSession(session.id)}
      >
        <span className="session-title">{title}</span>
        <span className="session-date">{formatDate(session.updated_at)}</span>
      </button>
      {confirming ? (
        <span className="session-confirm">
          <button
            ref={confirmButton}
            type="button"
            className="button small danger"
            data-testid="session-delete-confirm"
            onClick={() => void actions.deleteSession(session.id)}
          >
            Delete
          </button>
          <button type="button" className="button small" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button
          ref={deleteButton}
          type="button"
          className="icon-button"
          data-testid="session-delete"
          aria-label={`Delete session ${title}`}
          title="Delete"
          onClick={() => setConfirming(true)}
        >
          ✕
        </button>
      )}
    </li>
  );
}

export function SessionList() {
  const actions = useActions();
  const sessions = usePanel((state) => state.sessions);
  const currentId = usePanel((state) => state.session?.id);
  const sorted = [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  const setOpen = usePanel((state) => state.setSessionsOpen);
  const newButton = useRef<HTMLButtonElement>(null);
  useEffect(() => newButton.current?.focus(), []);
  // A deleted session takes its focused Delete button with it.
  useRefocusOnChange(sessions.length, newButton);
  useEffect(() => {
    void actions.refreshSessions();
  }, [actions]);
  return (
    <nav className="sessions" aria-label="Sessions" data-testid="session-list">
      <div className="sessions-head">
        <h2>Sessions</h2>
        <button
          ref={newButton}
          type="button"
          className="button small primary"
          data-testid="session-new"
          onClick={() => void actions.newSession()}
        >
          New session
        </button>
        <button
          type="button"
          className="icon-button"
          data-testid="sessions-close"
          aria-label="Close sessions"
          title="Close"
          onClick={() => setOpen(false)}
        >
          ✕
        </button>
      </div>
      {sorted.length === 0 ? <p className="card-note">No sessions yet.</p> : null}
      <ul>
        {sorted.map((session) => (
          <SessionItem key={session.id} session={session} current={session.id === currentId} />
        ))}
      </ul>
    </nav>
  );
}
