import { usePanel } from '../store/store.ts';
import type { RewindEntry } from '../store/transcript-types.ts';
import '../styles/rewind.css';
import { RewindDialog } from './RewindDialog.tsx';
import { useRewind } from './rewind-store.ts';

// What rewinds leave in the panel: the dialog while one is asked for, and one card per code rewind
// of the shown session (code_rewound events, so they are there after a reload too), which says what
// it changed and offers "Undo rewind" (a rewind to the checkpoint it took first, through the same
// dialog and conflict check) while that checkpoint exists.

export function RewindLayer() {
  const asking = useRewind((state) => state.asking);
  const rewinds = usePanel((state) => state.transcript.rewinds);
  return (
    <>
      {rewinds.length > 0 ? (
        <div className="rewind-cards">
          {rewinds.map((entry) => (
            <RewindCard key={entry.event.undo} entry={entry} />
          ))}
        </div>
      ) : null}
      {asking ? <RewindDialog key={`${asking.target}:${asking.mode}`} asking={asking} /> : null}
    </>
  );
}

function RewindCard({ entry }: { entry: RewindEntry }) {
  const ask = useRewind((state) => state.ask);
  const { event, undone, undo_gone: gone } = entry;
  return (
    <article className="card rewind-card" data-testid="rewind-card" aria-label="Rewind">
      <p>
        {undone ? 'Undone: ' : ''}Code rewound to before {event.what}: {event.restored.length} restored,{' '}
        {event.removed.length} removed
        {event.kept.length > 0 ? `, ${event.kept.length} kept as you left them` : ''}
        {event.not_restorable.length > 0 ? `, ${event.not_restorable.length} not restorable` : ''}.
      </p>
      {undone ? null : gone ? (
        <p className="card-note" data-testid="rewind-undo-gone">
          It can no longer be undone: the checkpoint taken before it was pruned to stay under the checkpoint storage
          limit.
        </p>
      ) : (
        <button
          type="button"
          className="button small"
          data-testid="rewind-undo"
          onClick={() => ask({ target: event.undo, mode: 'code', what: 'the rewind' })}
        >
          Undo rewind
        </button>
      )}
    </article>
  );
}
