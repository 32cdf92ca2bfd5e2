import type { ComposerNotice } from './run-builtin.ts';

// What a slash command answered (`/status`, `/help`, a refusal), above the message box until the
// person dismisses it or sends something else. Errors are alerts; the rest is a polite status.

export function ComposerNoticeView({ notice, onDismiss }: { notice: ComposerNotice; onDismiss(): void }) {
  return (
    <div
      className={`composer-notice ${notice.tone}`}
      data-testid="composer-notice"
      data-tone={notice.tone}
      role={notice.tone === 'error' ? 'alert' : 'status'}
    >
      <div className="composer-notice-text">
        <strong>{notice.title}</strong>
        {notice.lines.length > 0 ? (
          <ul>
            {notice.lines.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <button type="button" className="button small" data-testid="composer-notice-dismiss" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
