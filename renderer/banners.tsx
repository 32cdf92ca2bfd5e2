import { useState } from 'react';
import { useActions } from './actions.ts';
import { usePanel } from './store/store.ts';
import { SafeText } from './text/SafeText.tsx';

// The lines above the transcript: a lost connection, the last request that failed, what is wrong
// with settings.json, and what the opened session's replay found (damaged lines, or that another
// process is writing it). An error
// can quote what a model wrote (a refused link, say), so its invisible characters show as marks.

export function ConnectionBanner() {
  const connection = usePanel((state) => state.connection);
  const retryIn = usePanel((state) => state.retryIn);
  if (connection !== 'disconnected') return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="connection-banner">
      Disconnected from the panel host. {retryIn ? `Reconnecting in ${retryIn} s…` : 'Reconnecting…'}
    </div>
  );
}

export function ErrorBanner() {
  const error = usePanel((state) => state.error);
  const dismiss = usePanel((state) => state.showError);
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner">
      <span className="banner-text">
        <SafeText text={error} />
      </span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(null)}>
        ✕
      </button>
    </div>
  );
}

export function SessionNoticeBanner() {
  const actions = useActions();
  const notices = usePanel((state) => state.sessionNotices);
  const dismiss = usePanel((state) => state.dismissSessionNotices);
  // A session of another workspace is only shown here: the way on is a session of this one.
  const foreign = notices.some((notice) => notice.kind === 'other_workspace');
  if (notices.length === 0) return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="session-notice">
      <div className="banner-text">
        {notices.map((notice) => (
          <p key={notice.kind} data-kind={notice.kind}>
            {notice.text}
          </p>
        ))}
      </div>
      {foreign ? (
        <button
          type="button"
          className="button small primary"
          data-testid="session-new-here"
          onClick={() => void actions.newSession()}
        >
          New session here
        </button>
      ) : null}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
        ✕
      </button>
    </div>
  );
}

/**
 * settings.json that cannot be used (no session starts, nothing is saved, until it is fixed): stays
 * up until a read finds it fixed. Values of it that are not used: until dismissed or changed.
 */
export function SettingsFileBanner() {
  const actions = useActions();
  const problems = usePanel((state) => state.settings?.file_problems);
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!problems) return null;
  if (problems.unreadable !== undefined)
    return (
      <div className="banner banner-error" role="alert" data-testid="settings-file-banner" data-state="unreadable">
        <span className="banner-text">
          <SafeText text={problems.unreadable} />
        </span>
        <button
          type="button"
          className="button small"
          data-testid="settings-file-recheck"
          onClick={() => void actions.reloadSettings()}
        >
          Check again
        </button>
      </div>
    );
  const shown = problems.ignored.join('\n');
  if (problems.ignored.length === 0 || dismissed === shown) return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="settings-file-banner" data-state="ignored">
      <div className="banner-text">
        <p>Some values in {problems.path} are not used; the rest of the file applies:</p>
        {problems.ignored.map((line) => (
          <p key={line}>
            <SafeText text={line} />
          </p>
        ))}
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setDismissed(shown)}>
        ✕
      </button>
    </div>
  );
}
