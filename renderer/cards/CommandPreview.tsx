import { useState } from 'react';
import type { ChangedFile } from '../../protocol/changes.ts';
import type { CommandPreviewView, PreviewProgress } from '../../protocol/sandbox.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';
import { DiffLines } from './PatchFileView.tsx';
import '../styles/changes.css';

// Preview on a command's approval: the command run first over a copy of the workspace, in the
// sandbox with no network, and the files it would change shown as the Changes card shows them
// (counts, the diff on expand). Run it answers the question as Allow once; Keep the preview's
// result applies exactly those changes and the call returns the preview's output without running.

const STATUS: Record<ChangedFile['status'], string> = { added: 'new', modified: 'changed', deleted: 'deleted' };

type State =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'failed'; error: string }
  | { state: 'shown'; preview: CommandPreviewView };

export function CommandPreview({ callId, locked, onRun }: { callId: string; locked: boolean; onRun: () => void }) {
  const actions = useActions();
  const [shown, setShown] = useState<State>({ state: 'idle' });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [keeping, setKeeping] = useState(false);
  const progress = usePanel((state) => state.transcript.calls[callId]?.progress?.preview);
  const run = async () => {
    setShown({ state: 'running' });
    const result = await actions.previewCall(callId);
    setShown(result.ok ? { state: 'shown', preview: result.value } : { state: 'failed', error: result.error });
  };
  const keep = async () => {
    setKeeping(true);
    if (!(await actions.keepPreview(callId))) setKeeping(false);
  };
  const toggle = (file: string) => {
    const next = new Set(open);
    if (!next.delete(file)) next.add(file);
    setOpen(next);
  };
  if (shown.state === 'running') return <PreviewRunning progress={progress} />;
  if (shown.state === 'idle')
    return (
      <button
        type="button"
        className="button"
        data-testid="preview-command"
        disabled={locked}
        title="Run it first over a copy of the workspace, in the sandbox with no network, and see what it would change"
        onClick={() => void run()}
      >
        Preview
      </button>
    );
  if (shown.state === 'failed')
    return (
      <p className="card-note sandbox-refusal" role="alert" data-testid="preview-failed">
        <SafeText text={shown.error} />
      </p>
    );
  const { preview } = shown;
  const count = preview.files.length;
  return (
    <section
      className="changes-card command-preview"
      data-testid="command-preview"
      aria-label="What the command would change"
    >
      <header className="changes-head">
        <span className="changes-title" data-testid="preview-summary">
          Preview · {count === 0 ? 'no files would change' : `${count} file${count === 1 ? '' : 's'} would change`} ·
          exit {preview.exit_code ?? preview.status}
        </span>
      </header>
      {preview.caveat ? (
        <p className="card-note sandbox-refusal" data-testid="preview-caveat">
          <SafeText text={preview.caveat} />
        </p>
      ) : null}
      <ul className="changes-files">
        {preview.files.map((file) => (
          <li key={file.path} className="changes-file" data-testid="preview-file" data-path={file.path}>
            <div className="changes-row">
              <button
                type="button"
                className="link-button changes-toggle"
                aria-expanded={open.has(file.path)}
                onClick={() => toggle(file.path)}
              >
                <span aria-hidden="true">{open.has(file.path) ? '▾' : '▸'}</span> <SafeText text={file.path} />
              </button>
              <span className="changes-counts">
                <span className="stat-added">+{file.added}</span> <span className="stat-removed">−{file.removed}</span>{' '}
                <span className="card-note">{STATUS[file.status]}</span>
              </span>
            </div>
            {open.has(file.path) ? (
              file.diff !== '' ? (
                <DiffLines diff={file.diff} />
              ) : (
                <p className="card-note">No diff to show: {file.note ?? 'no text changed'}.</p>
              )
            ) : null}
          </li>
        ))}
      </ul>
      {preview.output ? (
        <pre className="exec-output" data-testid="preview-output" tabIndex={0} aria-label="What the preview printed">
          <SafeText text={preview.output} ansi />
        </pre>
      ) : null}
      <div className="approval-buttons">
        <button
          type="button"
          className="button primary"
          data-testid="preview-run"
          disabled={locked || keeping}
          onClick={onRun}
        >
          Run it
        </button>
        <button
          type="button"
          className="button"
          data-testid="preview-keep"
          disabled={locked || keeping}
          onClick={() => void keep()}
        >
          Keep the preview&apos;s result
        </button>
      </div>
    </section>
  );
}

const count = new Intl.NumberFormat('en');

/** What a running preview is doing, in words: the copy of a large workspace takes a while. */
export function previewProgressText(progress: PreviewProgress | undefined): string {
  if (!progress) return 'Previewing…';
  const of = progress.total > 0 ? ` ${count.format(progress.done)} of ${count.format(progress.total)} entries` : '';
  switch (progress.phase) {
    case 'listing':
      return `Listing the workspace… ${count.format(progress.done)} entries`;
    case 'copying':
      return `Copying the workspace…${of}`;
    case 'running':
      return 'Running the command over the copy, in the sandbox…';
    case 'comparing':
      return `Comparing the copy with the workspace…${of}`;
  }
}

function PreviewRunning({ progress }: { progress: PreviewProgress | undefined }) {
  const measured = progress && progress.total > 0 && progress.phase !== 'running';
  return (
    <div className="card-note command-preview-progress" role="status" data-testid="preview-progress">
      <span>{previewProgressText(progress)}</span>
      {measured ? <progress max={progress.total} value={progress.done} aria-hidden="true" /> : null}
    </div>
  );
}
