import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CompactionEvent, CompactionFailedEvent } from '../../protocol/events.ts';
import { copyText } from '../clipboard.ts';
import { usePanel } from '../store/store.ts';
import type { MessageEntry } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';

// A compaction of the model context: how big the next request was before and after, the summary
// that replaced the older messages (folded; expandable and copyable), and what stayed verbatim.
// Everything above it in the transcript stays as it was: only what the model is sent changed.
// A compaction that failed says why, and that nothing was removed.

export type CompactionEntry = Extract<MessageEntry, { kind: 'compaction' }>;

const numbers = new Intl.NumberFormat('en');

function triggerText(event: CompactionEvent | CompactionFailedEvent): string {
  if (event.trigger === 'manual') return 'by hand';
  if (event.trigger === 'window') return "to fit the model's window";
  return 'automatically';
}

/** "your last message and 3 recent tool results (read_file ×2, exec)" */
function KeptLine({ event }: { event: CompactionEvent }) {
  const names = usePanel(
    useShallow((state) => event.kept_call_ids.map((id) => state.transcript.calls[id]?.name ?? 'tool')),
  );
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const tools = [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ');
  const parts: string[] = [];
  if (event.kept_user_message !== undefined || event.kept_messages > 0) parts.push('your last message');
  if (names.length > 0) parts.push(`${names.length} recent tool result${names.length === 1 ? '' : 's'} (${tools})`);
  return (
    <p className="compaction-kept" data-testid="compaction-kept">
      Kept verbatim: {parts.length > 0 ? parts.join(' and ') : 'nothing but the summary'}.
    </p>
  );
}

function CopySummary({ summary }: { summary: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const onClick = () => {
    void copyText(summary).then((ok) => {
      setCopied(ok);
      setTimeout(() => setCopied(null), 1500);
    });
  };
  return (
    <button
      type="button"
      className="icon-button"
      data-testid="compaction-copy"
      title="Copy the summary"
      onClick={onClick}
    >
      {copied === null ? 'Copy summary' : copied ? 'Copied' : 'Copy failed'}
    </button>
  );
}

export function CompactionCard({ message }: { message: CompactionEntry }) {
  const { event } = message;
  const [open, setOpen] = useState(false);
  const summaryId = useId();
  if (event.type === 'compaction_failed') {
    return (
      <section className="compaction-card compaction-failed" data-testid="compaction-card" data-state="failed">
        <header className="compaction-header">
          <span className="compaction-title">Compaction failed</span>
          <span className="compaction-trigger">{triggerText(event)}</span>
        </header>
        <p className="compaction-error" data-testid="compaction-error" role="alert">
          <SafeText text={event.error} />
        </p>
      </section>
    );
  }
  return (
    <section
      className="compaction-card"
      data-testid="compaction-card"
      data-state="done"
      data-trigger={event.trigger}
      aria-label="Context compacted"
    >
      <header className="compaction-header">
        <span className="compaction-title">Context compacted</span>
        <span className="compaction-trigger">{triggerText(event)}</span>
        <span
          className="compaction-tokens"
          data-testid="compaction-tokens"
          title="Estimated tokens of the next request"
        >
          {numbers.format(event.tokens_before)} → {numbers.format(event.tokens_after)} tokens
        </span>
      </header>
      {event.notice ? (
        <p className="compaction-notice" data-testid="compaction-notice" role="status">
          <SafeText text={event.notice} />
        </p>
      ) : null}
      {event.focus ? (
        <p className="compaction-focus" data-testid="compaction-focus">
          Asked to keep: <SafeText text={event.focus} />
        </p>
      ) : null}
      <KeptLine event={event} />
      <p className="compaction-note">The cards above stay as they were; the model now works from the summary.</p>
      <div className="compaction-actions">
        <button
          type="button"
          className="icon-button"
          data-testid="compaction-toggle"
          aria-expanded={open}
          aria-controls={summaryId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Hide summary' : 'Show summary'}
        </button>
        <CopySummary summary={event.summary} />
      </div>
      {open ? (
        <pre className="compaction-summary" id={summaryId} data-testid="compaction-summary">
          <SafeText text={event.summary} />
        </pre>
      ) : null}
    </section>
  );
}
