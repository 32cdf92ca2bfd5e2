import { usePanel } from '../store/store.ts';
import '../styles/rewind.css';
import { RewindDialog } from './RewindDialog.tsx';
import { useRewind } from './rewind-store.ts';

// What rewinds leave in the panel: the dialog while one is asked for, and one card per code rewind
// of the shown session, which says what it changed and offers "Undo rewind" (a rewind to the
// checkpoint it took first, through the same dialog and conflict check).

export function RewindLayer() {
  const asking = useRewind((state) => state.asking);
  const records = useRewind((state) => state.records);
  const ask = useRewind((state) => state.ask);
  const session = usePanel((state) => state.session?.id ?? null);
  const shown = records.filter((record) => record.session === session);
  return (
    <>
      {shown.length > 0 ? (
        <div className="rewind-cards">
          {shown.map((record) => (
            <article key={record.key} className="card rewind-card" data-testid="rewind-card" aria-label="Rewind">
              <p>
                {record.undone ? 'Undone: ' : ''}Code rewound to before {record.what}: {record.done.restored.length}{' '}
                restored, {record.done.removed.length} removed
                {record.done.kept.length > 0 ? `, ${record.done.kept.length} kept as you left them` : ''}
                {record.done.not_restorable.length > 0 ? `, ${record.done.not_restorable.length} not restorable` : ''}.
              </p>
              {record.undone || record.done.undo === null ? null : (
                <button
                  type="button"
                  className="button small"
                  data-testid="rewind-undo"
                  onClick={() => ask({ target: record.done.undo ?? '', mode: 'code', what: 'the rewind' })}
                >
                  Undo rewind
                </button>
              )}
            </article>
          ))}
        </div>
      ) : null}
      {asking ? <RewindDialog key={`${asking.target}:${asking.mode}`} asking={asking} /> : null}
    </>
  );
}
