import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../protocol/errors.ts';
import type { HookEntry, HooksScreen } from '../../protocol/hooks.ts';
import { useActions } from '../actions.ts';
import { SafeText } from '../text/SafeText.tsx';

// The hooks section of Settings: every hook the settings files configure, where, and whether it
// runs. A workspace hook waits here for "Approve", which names its whole command; one that changes
// waits again.

export function HooksSection() {
  const actions = useActions();
  const [screen, setScreen] = useState<HooksScreen | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const take = useCallback((result: Awaited<ReturnType<typeof actions.hooks>>) => {
    if (result.ok) {
      setScreen(result.value);
      setError(null);
    } else setError(result.error);
  }, []);

  useEffect(() => {
    let live = true;
    actions
      .hooks()
      .then((result) => live && take(result))
      .catch((caught: unknown) => live && setError(errorMessage(caught)));
    return () => {
      live = false;
    };
  }, [actions, take]);

  const approve = async (ids: string[]) => {
    setBusy(true);
    try {
      take(await actions.hooks(ids));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  const pending = screen?.hooks.filter((hook) => !hook.approved) ?? [];
  return (
    <section className="mcp-servers hooks" aria-labelledby="hooks-title" data-testid="hooks">
      <h3 id="hooks-title" tabIndex={-1}>
        Hooks
      </h3>
      <p className="card-note">
        Your commands at moments of a session (PreToolUse, PostToolUse, Stop…), under <code>hooks</code> in your{' '}
        <code>settings.json</code> and this workspace&apos;s <code>.aethercodex/settings.json</code> and{' '}
        <code>.claude/settings.json</code>. A workspace hook runs a command from the repository: it waits for your
        approval.
      </p>
      {error ? (
        <p className="card-error" role="alert" data-testid="hooks-error">
          {error}
        </p>
      ) : null}
      {screen?.problems.map((problem) => (
        <p key={problem} className="card-error" data-testid="hook-problem">
          <SafeText text={problem} />
        </p>
      ))}
      {screen && screen.hooks.length === 0 ? <p className="card-note">No hook is configured.</p> : null}
      {pending.length > 1 ? (
        <button
          type="button"
          className="button small primary"
          data-testid="hooks-approve-all"
          disabled={busy}
          onClick={() => void approve(pending.map((hook) => hook.id))}
        >
          Approve all {pending.length}
        </button>
      ) : null}
      {screen?.hooks.map((hook) => (
        <HookItem key={hook.id} hook={hook} busy={busy} approve={approve} />
      ))}
      {screen === null && error === null ? <p className="card-note">Loading hooks…</p> : null}
    </section>
  );
}

function HookItem({ hook, busy, approve }: { hook: HookEntry; busy: boolean; approve(ids: string[]): Promise<void> }) {
  const id = `hook-${hook.id}`;
  return (
    <article
      className="mcp-server"
      aria-labelledby={`${id}-name`}
      data-testid="hook-entry"
      data-approved={hook.approved}
    >
      <div className="mcp-server-head">
        <h4 id={`${id}-name`}>
          {hook.event}
          {hook.matcher ? (
            <>
              {' '}
              <span className="hook-matcher">
                <SafeText text={hook.matcher} />
              </span>
            </>
          ) : null}
        </h4>
        <span className="badge">{hook.origin === 'workspace' ? 'workspace' : 'yours'}</span>
        <span className={`badge ${hook.approved ? 'badge-ok' : 'badge-ask'}`} data-testid="hook-status">
          {hook.approved ? 'runs' : 'waiting for your approval'}
        </span>
      </div>
      <code className="mcp-command">
        <SafeText text={hook.command} />
      </code>
      <p className="card-note">
        <SafeText text={hook.source} /> · up to {hook.timeout_s} s
      </p>
      {hook.approved ? null : (
        <div className="mcp-server-actions">
          <button
            type="button"
            className="button small primary"
            data-testid="hook-approve"
            disabled={busy}
            onClick={() => void approve([hook.id])}
          >
            Approve
          </button>
          <span className="card-note">It runs with your permissions; a change to it asks again.</span>
        </div>
      )}
    </article>
  );
}
