import type { Ref } from 'react';
import type { SessionExportFormat } from '../../protocol/session-export.ts';

// The inline choice a session's Export… opens: Markdown, an HTML page, or Cancel. The first button
// takes the focus (through `firstRef`), so Enter exports as Markdown and Tab reaches the others.

export function ExportFormats({
  label,
  busy,
  firstRef,
  onChoose,
  onCancel,
  testIdPrefix,
}: {
  /** What the group is called for a screen reader: "Export session X as". */
  label: string;
  /** An export is being saved: the formats wait. */
  busy: boolean;
  firstRef: Ref<HTMLButtonElement>;
  onChoose: (format: SessionExportFormat) => void;
  onCancel: () => void;
  /** `session-export` gives `session-export-markdown` and `session-export-html`. */
  testIdPrefix: string;
}) {
  return (
    <span className="session-confirm" role="group" aria-label={label}>
      <button
        ref={firstRef}
        type="button"
        className="button small"
        data-testid={`${testIdPrefix}-markdown`}
        disabled={busy}
        onClick={() => onChoose('markdown')}
      >
        Markdown
      </button>
      <button
        type="button"
        className="button small"
        data-testid={`${testIdPrefix}-html`}
        disabled={busy}
        onClick={() => onChoose('html')}
      >
        HTML page
      </button>
      <button type="button" className="button small" onClick={onCancel}>
        Cancel
      </button>
    </span>
  );
}
