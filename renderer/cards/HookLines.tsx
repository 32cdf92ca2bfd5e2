import { useId, useState } from 'react';
import type { HookRanEvent } from '../../protocol/events.ts';
import { formatDuration } from '../../protocol/format.ts';
import { hookRunLine } from '../../protocol/hooks.ts';
import { SafeText } from '../text/SafeText.tsx';

// The small lines a card carries for the hooks that acted on its call ("formatted by `prettier
// --write`", "denied by hook: force-push"), each a button that shows what the hook printed, its
// exit and where it is configured.

export function HookLines({ runs }: { runs: readonly HookRanEvent[] }) {
  return (
    <ul className="hook-lines" data-testid="hook-lines" aria-label="Hooks">
      {runs.map((run, index) => (
        <HookLine key={`${run.seq ?? index}`} run={run} />
      ))}
    </ul>
  );
}

function HookLine({ run }: { run: HookRanEvent }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const tone =
    run.decision === 'deny' || run.decision === 'block' ? 'refused' : run.decision === 'failed' ? 'failed' : 'ran';
  const ended = run.status === 'exited' ? `exit code ${run.exit_code ?? '?'}` : run.status.replaceAll('_', ' ');
  return (
    <li className={`hook-line is-${tone}`} data-testid="hook-line" data-decision={run.decision}>
      <button
        type="button"
        className="hook-line-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span className="hook-line-mark" aria-hidden="true">
          ↳
        </span>
        <SafeText text={hookRunLine(run)} />
      </button>
      {open ? (
        <div className="hook-output" id={id} data-testid="hook-output">
          <p className="hook-output-meta">
            {run.hook_event} · {ended} · {formatDuration(run.duration_ms)} · <SafeText text={run.source} />
          </p>
          <pre className="hook-output-command">
            <SafeText text={run.command} />
          </pre>
          {run.notice ? <p className="hook-output-notice">{<SafeText text={run.notice} />}</p> : null}
          <HookStream name="stdout" text={run.stdout} />
          <HookStream name="stderr" text={run.stderr} />
          {run.stdout === '' && run.stderr === '' ? <p className="hook-output-meta">It printed nothing.</p> : null}
          {run.output_cut ? (
            <p className="hook-output-meta">Its output was longer: only the last 16 KiB of each stream are kept.</p>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function HookStream({ name, text }: { name: string; text: string }) {
  if (text === '') return null;
  return (
    <>
      <p className="hook-output-meta">{name}</p>
      <pre className="hook-output-text">
        <SafeText text={text} />
      </pre>
    </>
  );
}
