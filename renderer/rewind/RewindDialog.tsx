import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { RewindChoice, RewindPreview } from '../../protocol/rewind.ts';
import { useActions } from '../actions.ts';
import { SafeText } from '../text/SafeText.tsx';
import { ConflictList } from './ConflictList.tsx';
import { useRewind, type RewindAsk } from './rewind-store.ts';

// The rewind dialog: what the rewind will change (files restored and removed, the message the
// conversation goes back before), and each file someone other than the agent changed since, with
// the choice to keep theirs or take the checkpoint's (nothing is chosen for them: Rewind waits
// until every conflict has a choice). Esc or Cancel closes it without changing anything.

const TITLES = { code: 'Rewind code', conversation: 'Rewind conversation', both: 'Rewind code and conversation' };

type Loaded = { ok: true; value: RewindPreview } | { ok: false; error: string } | null;

export function RewindDialog({ asking }: { asking: RewindAsk }) {
  const actions = useActions();
  const { ask, setDraft } = useRewind.getState();
  const [preview, setPreview] = useState<Loaded>(null);
  const [choices, setChoices] = useState<Record<string, RewindChoice>>({});
  const [working, setWorking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<Element | null>(document.activeElement);

  useEffect(() => {
    let live = true;
    void actions
      .previewRewind({ target: asking.target, mode: asking.mode })
      .then((loaded) => live && setPreview(loaded));
    return () => {
      live = false;
    };
  }, [actions, asking]);
  useEffect(() => {
    dialog.current?.focus();
    const previous = returnFocus.current;
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  const value = preview?.ok ? preview.value : null;
  const open = value ? value.conflicts.filter((conflict) => choices[conflict.path] === undefined) : [];
  const nothing = value !== null && value.mode === 'code' && value.restore.length === 0 && value.remove.length === 0;
  const close = () => ask(null);

  const apply = async () => {
    if (!value) return;
    setWorking(true);
    setFailure(null);
    const done = await actions.applyRewind({ target: asking.target, mode: asking.mode, choices, what: asking.what });
    setWorking(false);
    if (!done.ok) {
      setFailure(done.error);
      return;
    }
    // The rewind's card comes with its code_rewound event, written to the session.
    close();
    if (done.value.fork) {
      await actions.openSession(done.value.fork);
      setDraft(done.value.message ?? '');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  return (
    <div className="dialog-backdrop">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="rewind-title"
        className="rewind-dialog"
        data-testid="rewind-dialog"
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id="rewind-title" className="rewind-title">
          {TITLES[asking.mode]} to before <SafeText text={asking.what} />
        </h2>
        {preview === null ? <p className="card-note">Looking at what would change…</p> : null}
        {preview && !preview.ok ? (
          <p className="card-error" role="alert" data-testid="rewind-error">
            <SafeText text={preview.error} />
          </p>
        ) : null}
        {value ? (
          <PreviewBody
            preview={value}
            choices={choices}
            onChoose={(path, choice) => setChoices({ ...choices, [path]: choice })}
          />
        ) : null}
        {nothing ? <p data-testid="rewind-nothing">The files are as they were: nothing to rewind.</p> : null}
        {failure ? (
          <p className="card-error" role="alert" data-testid="rewind-error">
            <SafeText text={failure} />
          </p>
        ) : null}
        <div className="rewind-actions">
          <button
            type="button"
            className="button primary"
            data-testid="rewind-confirm"
            disabled={!value || working || open.length > 0 || nothing}
            title={open.length > 0 ? `Choose for ${open.length} file(s) first` : undefined}
            onClick={() => void apply()}
          >
            {working ? 'Rewinding…' : 'Rewind'}
          </button>
          <button type="button" className="button" data-testid="rewind-cancel" onClick={close}>
            Cancel
          </button>
          {open.length > 0 ? <span className="card-note">Choose for each changed file first.</span> : null}
        </div>
      </div>
    </div>
  );
}

function FileList({ title, files, testId }: { title: string; files: string[]; testId: string }) {
  if (files.length === 0) return null;
  return (
    <section className="rewind-section">
      <h3>
        {title} ({files.length})
      </h3>
      <ul className="rewind-files" data-testid={testId}>
        {files.map((file) => (
          <li key={file}>
            <SafeText text={file} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function PreviewBody({
  preview,
  choices,
  onChoose,
}: {
  preview: RewindPreview;
  choices: Record<string, RewindChoice>;
  onChoose: (path: string, choice: RewindChoice) => void;
}) {
  const conflicted = new Set(preview.conflicts.map((conflict) => conflict.path));
  return (
    <div className="rewind-body">
      {preview.message !== null ? (
        <section className="rewind-section">
          <h3>A new session starts before your message (this one stays as it is); the message goes back in the box:</h3>
          <blockquote className="rewind-message" data-testid="rewind-message">
            <SafeText text={preview.message} />
          </blockquote>
        </section>
      ) : null}
      <FileList
        title="Restored"
        files={preview.restore.filter((file) => !conflicted.has(file))}
        testId="rewind-restore"
      />
      <FileList title="Removed" files={preview.remove.filter((file) => !conflicted.has(file))} testId="rewind-remove" />
      <FileList
        title="Not restorable (over the size limit), left as they are"
        files={preview.not_restorable}
        testId="rewind-large"
      />
      {preview.conflicts.length > 0 ? (
        <section className="rewind-section" data-testid="rewind-conflicts">
          <h3>Changed since by someone other than the agent ({preview.conflicts.length})</h3>
          <ConflictList
            conflicts={preview.conflicts}
            choices={choices}
            onChoose={onChoose}
            group="conflict"
            takeLabel="Take the checkpoint’s"
          />
        </section>
      ) : null}
    </div>
  );
}
