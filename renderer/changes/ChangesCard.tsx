import { useCallback, useEffect, useState } from 'react';
import type { ChangedFile, ChangesRevertDone, TurnChanges } from '../../protocol/changes.ts';
import type { RewindChoice, RewindFileConflict } from '../../protocol/rewind.ts';
import { useActions } from '../actions.ts';
import { DiffLines } from '../cards/PatchFileView.tsx';
import { ConflictList } from '../rewind/ConflictList.tsx';
import { SafeText } from '../text/SafeText.tsx';
import '../styles/changes.css';

// The Changes card after the last row of a finished turn that changed files: every file the turn
// changed (write_file, patch_file, commands), with +/− counts, its diff on expand, and a revert of
// one file or all of them. The list is computed in main from the turn's checkpoints, so it is the
// same after a reload. A file the person changed since the turn is never overwritten silently: the
// card asks, per file, to keep theirs or take the version before the turn.

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'ready'; changes: TurnChanges };

interface Asking {
  paths: string[] | undefined;
  conflicts: RewindFileConflict[];
  choices: Record<string, RewindChoice>;
}

const STATUS: Record<ChangedFile['status'], string> = { added: 'new', modified: 'changed', deleted: 'deleted' };

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm;

/** The first and last line (in the turn's version) of each hunk of a unified diff. */
function hunkLines(diff: string): { from: number; to: number }[] {
  return [...diff.matchAll(HUNK)].map((match) => {
    const from = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    return { from, to: Math.max(from, from + count - 1) };
  });
}

function summary(done: ChangesRevertDone): string {
  const parts = [
    done.restored.length > 0 ? `restored ${done.restored.join(', ')}` : null,
    done.removed.length > 0 ? `removed ${done.removed.join(', ')}` : null,
    done.kept.length > 0 ? `kept your ${done.kept.join(', ')}` : null,
    done.not_restorable.length > 0 ? `could not restore ${done.not_restorable.join(', ')} (over the size limit)` : null,
  ].filter((part) => part !== null);
  return parts.length > 0
    ? `Reverted: ${parts.join('; ')}.`
    : 'Nothing needed reverting: the files are as before the turn.';
}

export function ChangesCard({ turnId }: { turnId: string }) {
  const actions = useActions();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [asking, setAsking] = useState<Asking | null>(null);
  const [working, setWorking] = useState(false);
  const [result, setResult] = useState<{ text: string; error: boolean } | null>(null);
  // Bumped after a revert: the list is asked for again, so each file says where it stands now.
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    void actions.turnChanges(turnId).then((loaded) => {
      if (!live) return;
      setLoad(loaded.ok ? { state: 'ready', changes: loaded.value } : { state: 'failed', error: loaded.error });
    });
    return () => {
      live = false;
    };
  }, [actions, turnId, generation]);

  const revert = useCallback(
    async (paths: string[] | undefined, choices?: Record<string, RewindChoice>, hunk?: number) => {
      setWorking(true);
      setResult(null);
      const done = await actions.revertChanges({
        turn_id: turnId,
        ...(paths ? { paths } : {}),
        ...(choices ? { choices } : {}),
        ...(hunk === undefined ? {} : { hunk }),
      });
      setWorking(false);
      if (!done.ok) {
        setResult({ text: done.error, error: true });
        return;
      }
      if (done.value.conflicts.length > 0) {
        setAsking({ paths, conflicts: done.value.conflicts, choices: {} });
        return;
      }
      setAsking(null);
      const text =
        hunk === undefined ? summary(done.value) : `Reverted hunk ${hunk + 1} of ${paths?.join(', ') ?? ''}.`;
      setResult({ text, error: false });
      setGeneration((count) => count + 1);
    },
    [actions, turnId],
  );

  if (load.state === 'loading') return null;
  if (load.state === 'failed')
    return (
      <p className="card-error changes-error" role="alert" data-testid="changes-error">
        The changes of this turn could not be listed: <SafeText text={load.error} />
      </p>
    );
  const { files } = load.changes;
  if (files.length === 0) return null;
  const added = files.reduce((sum, file) => sum + file.added, 0);
  const removed = files.reduce((sum, file) => sum + file.removed, 0);
  const toggle = (file: string) => {
    const next = new Set(open);
    if (next.has(file)) next.delete(file);
    else next.add(file);
    setOpen(next);
  };
  return (
    <section className="card changes-card" data-testid="changes-card" aria-label="Changes of this turn">
      <header className="changes-header">
        <h3 className="changes-title">
          Changes · {files.length} {files.length === 1 ? 'file' : 'files'} <span className="stat-added">+{added}</span>{' '}
          <span className="stat-removed">−{removed}</span>
        </h3>
        <button
          type="button"
          className="button"
          data-testid="changes-revert-all"
          disabled={working || asking !== null}
          onClick={() => void revert(undefined)}
        >
          Revert all
        </button>
      </header>
      <ul className="changes-files">
        {files.map((file) => (
          <li key={file.path} className="changes-file" data-testid="changes-file" data-path={file.path}>
            <div className="changes-row">
              <button
                type="button"
                className="link-button changes-toggle"
                data-testid="changes-toggle"
                aria-expanded={open.has(file.path)}
                onClick={() => toggle(file.path)}
              >
                <span aria-hidden="true">{open.has(file.path) ? '▾' : '▸'}</span> <SafeText text={file.path} />
              </button>
              <span className="changes-counts" data-testid="changes-counts">
                <span className="stat-added">+{file.added}</span> <span className="stat-removed">−{file.removed}</span>{' '}
                <span className="card-note">{STATUS[file.status]}</span>
                {file.agents ? (
                  <span className="card-note" data-testid="changes-by-agent">
                    {' '}
                    · by agent {file.agents.join(', ')}
                  </span>
                ) : null}
                {file.now === 'before' ? (
                  <span className="card-note" data-testid="changes-reverted">
                    {' '}
                    · reverted
                  </span>
                ) : file.now === 'changed' ? (
                  <span className="card-note" data-testid="changes-changed-since">
                    {' '}
                    · changed since
                  </span>
                ) : null}
              </span>
              <button
                type="button"
                className="button changes-revert"
                data-testid="changes-revert-file"
                aria-label={`Revert ${file.path}`}
                disabled={working || asking !== null || file.not_restorable}
                title={file.not_restorable ? 'Over the size limit: its bytes were not recorded' : undefined}
                onClick={() => void revert([file.path])}
              >
                Revert file
              </button>
            </div>
            {open.has(file.path) ? (
              file.diff !== '' ? (
                <>
                  <DiffLines diff={file.diff} />
                  {file.status === 'modified' ? (
                    <HunkButtons
                      file={file}
                      disabled={working || asking !== null}
                      onRevert={(index) => void revert([file.path], undefined, index)}
                    />
                  ) : null}
                </>
              ) : (
                <p className="card-note" data-testid="changes-note">
                  No diff to show: {file.note ?? 'no text changed'}.
                </p>
              )
            ) : null}
          </li>
        ))}
      </ul>
      {asking ? (
        <ConflictChoices
          asking={asking}
          working={working}
          onChoose={(path, choice) => setAsking({ ...asking, choices: { ...asking.choices, [path]: choice } })}
          onConfirm={() => void revert(asking.paths, asking.choices)}
          onCancel={() => setAsking(null)}
        />
      ) : null}
      {result ? (
        <p
          className={result.error ? 'card-error' : 'card-note'}
          role={result.error ? 'alert' : 'status'}
          data-testid="changes-result"
        >
          <SafeText text={result.text} />
        </p>
      ) : null}
    </section>
  );
}

/** "Revert hunk N" per hunk, when the file's diff has several: the person's other edits in the file stay. */
function HunkButtons(props: { file: ChangedFile; disabled: boolean; onRevert: (index: number) => void }) {
  const hunks = hunkLines(props.file.diff);
  if (hunks.length < 2) return null;
  return (
    <div className="changes-hunks" data-testid="changes-hunks">
      {hunks.map((hunk, index) => (
        <button
          key={index}
          type="button"
          className="button"
          data-testid="changes-revert-hunk"
          disabled={props.disabled}
          aria-label={`Revert hunk ${index + 1} of ${props.file.path} (lines ${hunk.from}–${hunk.to})`}
          onClick={() => props.onRevert(index)}
        >
          Revert hunk {index + 1} · lines {hunk.from}–{hunk.to}
        </button>
      ))}
    </div>
  );
}

function ConflictChoices(props: {
  asking: Asking;
  working: boolean;
  onChoose: (path: string, choice: RewindChoice) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { asking } = props;
  const missing = asking.conflicts.filter((conflict) => asking.choices[conflict.path] === undefined).length;
  return (
    <div className="changes-conflicts" data-testid="changes-conflicts" role="group" aria-label="Files you changed">
      <p>You changed these files since this turn. For each, keep yours or take the version from before the turn:</p>
      <ConflictList
        conflicts={asking.conflicts}
        choices={asking.choices}
        onChoose={props.onChoose}
        group="changes-conflict"
        takeLabel="Take the version from before the turn"
      />
      <div className="changes-actions">
        <button
          type="button"
          className="button primary"
          data-testid="changes-conflicts-confirm"
          disabled={props.working || missing > 0}
          onClick={props.onConfirm}
        >
          Revert
        </button>
        <button type="button" className="button" data-testid="changes-conflicts-cancel" onClick={props.onCancel}>
          Cancel
        </button>
        {missing > 0 ? <span className="card-note">Choose for each file first.</span> : null}
      </div>
    </div>
  );
}
