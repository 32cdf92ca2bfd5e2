import { useRef, useState, type KeyboardEvent } from 'react';
import type { SessionSummary } from '../../protocol/api.ts';
import { sessionName } from './session-name.ts';
import type { SessionExportFormat } from '../../protocol/session-export.ts';
import { useActions } from '../actions.ts';
import { useRefocusOnChange } from '../focus.ts';
import { AgentSessions } from './AgentSessions.tsx';
import { ExportFormats } from './ExportFormats.tsx';

// One session in the list: open it, rename it in place (Enter saves, Esc keeps the old name),
// export it (Markdown or an HTML page, chosen inline), or delete it after a second click (an inline
// confirmation, no modal dialog). A search shows, under the name, the words around what it found.

const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dates.format(time);
}

type Mode = 'idle' | 'renaming' | 'confirming' | 'exporting';

export function SessionItem({
  session,
  current,
  currentId,
  snippet,
}: {
  session: SessionSummary;
  current: boolean;
  /** The session shown, which may be one of this one's agents. */
  currentId?: string | undefined;
  snippet?: string;
}) {
  const actions = useActions();
  const [mode, setMode] = useState<Mode>('idle');
  // Where focus goes back to when the rename box or the confirmation goes away.
  const [returnTo, setReturnTo] = useState<'rename' | 'delete' | 'export'>('rename');
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const exportButton = useRef<HTMLButtonElement>(null);
  const markdownButton = useRef<HTMLButtonElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  // The controls that replace each other take the focus with them.
  const idleTarget = returnTo === 'delete' ? deleteButton : returnTo === 'export' ? exportButton : renameButton;
  useRefocusOnChange(
    mode,
    mode === 'confirming'
      ? confirmButton
      : mode === 'renaming'
        ? nameInput
        : mode === 'exporting'
          ? markdownButton
          : idleTarget,
  );
  const exportAs = async (format: SessionExportFormat) => {
    setSaving(true);
    await actions.exportSession(session.id, format);
    setSaving(false);
    setMode('idle');
  };
  const title = sessionName(session);

  const startRenaming = () => {
    finishing.current = false;
    setReturnTo('rename');
    setName(session.title);
    setMode('renaming');
    requestAnimationFrame(() => {
      nameInput.current?.focus();
      nameInput.current?.select();
    });
  };
  const finishing = useRef(false);
  const finishRenaming = async (save: boolean) => {
    // Enter or Esc, then the blur of the box going away: one finish.
    if (finishing.current) return;
    finishing.current = true;
    if (save && name.trim() !== session.title) {
      setSaving(true);
      const renamed = await actions.renameSession(session.id, name);
      setSaving(false);
      // A failed rename keeps the box open with what was typed; the banner says why.
      if (!renamed) {
        finishing.current = false;
        return;
      }
    }
    setMode('idle');
    finishing.current = false;
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  const onNameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void finishRenaming(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      void finishRenaming(false);
    }
  };

  return (
    <li className={`session-item${current ? ' current' : ''}`} data-testid="session-item" data-session-id={session.id}>
      {mode === 'renaming' ? (
        <input
          ref={nameInput}
          className="session-rename-input"
          data-testid="session-rename-input"
          aria-label={`New name for session ${title} (Enter saves, Esc cancels)`}
          value={name}
          maxLength={200}
          disabled={saving}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={onNameKey}
          onBlur={() => void finishRenaming(true)}
        />
      ) : (
        <button
          type="button"
          className="session-open"
          data-testid="session-open"
          aria-current={current ? 'true' : undefined}
          onClick={() => void actions.openSession(session.id)}
        >
          <span className="session-title">{title}</span>
          {snippet ? (
            <span className="session-snippet" data-testid="session-snippet">
              {snippet}
            </span>
          ) : null}
          <span className="session-date">{formatDate(session.updated_at)}</span>
        </button>
      )}
      {mode === 'confirming' ? (
        <span key="confirm" className="session-confirm">
          <button
            ref={confirmButton}
            type="button"
            className="button small danger"
            data-testid="session-delete-confirm"
            onClick={() => void actions.deleteSession(session.id)}
          >
            Delete
          </button>
          <button type="button" className="button small" onClick={() => setMode('idle')}>
            Keep
          </button>
        </span>
      ) : mode === 'exporting' ? (
        <ExportFormats
          key="export"
          label={`Export session ${title} as`}
          busy={saving}
          firstRef={markdownButton}
          onChoose={(format) => void exportAs(format)}
          onCancel={() => setMode('idle')}
          testIdPrefix="session-export"
        />
      ) : mode === 'idle' ? (
        <span key="actions" className="session-actions">
          <button
            ref={renameButton}
            type="button"
            className="icon-button"
            data-testid="session-rename"
            aria-label={`Rename session ${title}`}
            title="Rename"
            onClick={startRenaming}
          >
            ✎
          </button>
          <button
            ref={exportButton}
            type="button"
            className="icon-button"
            data-testid="session-export"
            aria-label={`Export session ${title}…`}
            title="Export…"
            onClick={() => {
              setReturnTo('export');
              setMode('exporting');
            }}
          >
            ⤓
          </button>
          <button
            ref={deleteButton}
            type="button"
            className="icon-button"
            data-testid="session-delete"
            aria-label={`Delete session ${title}`}
            title="Delete"
            onClick={() => {
              setReturnTo('delete');
              setMode('confirming');
            }}
          >
            ✕
          </button>
        </span>
      ) : null}
      {session.agents && session.agents.length > 0 ? (
        <AgentSessions agents={session.agents} parentTitle={title} currentId={currentId} />
      ) : null}
    </li>
  );
}
