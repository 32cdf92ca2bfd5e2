import { useEffect, useRef, useState } from 'react';
import type { SessionExportFormat } from '../../protocol/session-export.ts';
import { useActions } from '../actions.ts';
import { useRefocusOnChange } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';
import { ExportFormats } from './ExportFormats.tsx';

// Above the transcript of an agent's session (opened from the session list): whose it is, that it is
// only shown, and the ways back — to the session whose `agent` call started it, and to that call's
// card there — and its export, as any session's. Opening one puts the focus on the way back, so the
// keyboard starts where the person will go next.

export function AgentOrigin() {
  const actions = useActions();
  const origin = usePanel((state) => state.session?.agent_of);
  const shownId = usePanel((state) => state.session?.id);
  const back = useRef<HTMLButtonElement>(null);
  const exportButton = useRef<HTMLButtonElement>(null);
  const markdownButton = useRef<HTMLButtonElement>(null);
  const [exporting, setExporting] = useState(false);
  const [saving, setSaving] = useState(false);
  // The choice of format takes the focus; Cancel or a finished export gives it back to Export….
  useRefocusOnChange(exporting, exporting ? markdownButton : exportButton);
  const shown = origin !== undefined;
  useEffect(() => {
    if (!shown) return undefined;
    // After the session list has closed and given the focus back to ☰.
    const frame = requestAnimationFrame(() => back.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [shown, shownId]);
  useEffect(() => setExporting(false), [shownId]);
  if (!origin || shownId === undefined) return null;
  const parentName = origin.parent_title || `session ${origin.session}`;
  const exportAs = async (format: SessionExportFormat) => {
    setSaving(true);
    await actions.exportSession(shownId, format);
    setSaving(false);
    setExporting(false);
  };
  return (
    <section className="agent-origin" data-testid="agent-origin" aria-label="Agent session">
      <p className="agent-origin-what">
        <span aria-hidden="true">⎇</span> Agent <span className="agent-origin-name">{origin.agent}</span>’s session ·{' '}
        <span className="agent-origin-readonly">read-only</span>
      </p>
      <p className="agent-origin-ways">
        <button
          ref={back}
          type="button"
          className="link-button agent-origin-parent"
          data-testid="agent-origin-parent"
          title={`Back to the session that started it: ${parentName}`}
          onClick={() => void actions.openSession(origin.session)}
        >
          ↰ Back to <SafeText text={parentName} />
        </button>
        {origin.call_id ? (
          <button
            type="button"
            className="link-button agent-origin-card"
            data-testid="agent-origin-card"
            onClick={() => void actions.showAgentCard(origin.session, origin.call_id)}
          >
            Show its agent card
          </button>
        ) : null}
        {exporting ? (
          <ExportFormats
            label={`Export agent ${origin.agent}’s session as`}
            busy={saving}
            firstRef={markdownButton}
            onChoose={(format) => void exportAs(format)}
            onCancel={() => setExporting(false)}
            testIdPrefix="agent-origin-export"
          />
        ) : (
          <button
            ref={exportButton}
            type="button"
            className="link-button agent-origin-export"
            data-testid="agent-origin-export"
            onClick={() => setExporting(true)}
          >
            Export…
          </button>
        )}
      </p>
    </section>
  );
}
