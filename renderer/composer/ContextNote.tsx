import { useShallow } from 'zustand/react/shallow';
import { compactionOutlook, compactionSetting, DEFAULT_COMPACT_AT, type CompactionOutlook } from '../store/meter.ts';
import { usePanel } from '../store/store.ts';

// Above the footer, in words, when compaction is near: "Compacts soon: 84 % of 200k", or that it
// happens before the next request, or — with automatic compaction off — how full the context is.
// The colour of the meter alone is not enough (and says nothing to a screen reader): the line is in
// a polite live region, so it is announced when it appears and as it changes.

/** The compaction outlook of the shown session, from the store. */
export function useCompactionOutlook(): CompactionOutlook | null {
  const { meter, compactAt } = usePanel(
    useShallow((state) => ({ meter: state.transcript.meter, compactAt: compactionSetting(state.settings) })),
  );
  return compactionOutlook(meter, compactAt);
}

export function ContextNote() {
  const outlook = useCompactionOutlook();
  const compactAt = usePanel((state) => compactionSetting(state.settings));
  const why =
    compactAt === null
      ? 'Automatic compaction is off (Settings → Compact the context at); Compact in the footer makes room now.'
      : `The conversation is summarised when the context passes ${compactAt ?? DEFAULT_COMPACT_AT} % of the window (Settings → Compact the context at); Compact in the footer does it now.`;
  return (
    <div className="context-note" role="status" data-testid="context-note-region">
      {outlook ? (
        <p className="context-note-text" data-testid="context-note" data-level={outlook.level} title={why}>
          {outlook.text}
        </p>
      ) : null}
    </div>
  );
}
