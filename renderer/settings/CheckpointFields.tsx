import { useEffect, useState } from 'react';
import { useActions } from '../actions.ts';

// Checkpoints (checkpoints_enabled, checkpoint_storage_mib): whether the workspace is recorded
// before every write, command or Code Mode call, and how much disk a session's checkpoints may
// take before the oldest are pruned. The main process holds the same bounds and has the last word.

const MIN_MIB = 16;
const MAX_MIB = 1024 * 1024;
export const DEFAULT_CHECKPOINT_MIB = 2048;

export function CheckpointFields({ enabled, mib }: { enabled: boolean; mib: number }) {
  const actions = useActions();
  const [text, setText] = useState(String(mib));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(mib)), [mib]);
  const commit = (): void => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < MIN_MIB || value > MAX_MIB) {
      setError(`Give a whole number of MiB from ${MIN_MIB} to ${MAX_MIB}; it stays at ${mib} MiB.`);
      setText(String(mib));
      return;
    }
    setError(null);
    if (value !== mib) void actions.updateSettings({ checkpoint_storage_mib: value });
  };
  return (
    <>
      <label htmlFor="settings-checkpoints">Checkpoints</label>
      <span className="settings-inline">
        <label>
          <input
            id="settings-checkpoints"
            type="checkbox"
            data-testid="checkpoints-enabled"
            checked={enabled}
            aria-describedby="settings-checkpoints-note"
            onChange={(event) => void actions.updateSettings({ checkpoints_enabled: event.target.checked })}
          />{' '}
          before every write or command
        </label>
      </span>
      <p className="card-note settings-wide" id="settings-checkpoints-note" data-testid="checkpoints-note">
        {enabled
          ? 'The workspace is recorded before each write, command or Code Mode call, so any card can be rewound. A call whose checkpoint cannot be made does not run.'
          : 'Off: writes and commands run without a checkpoint, and their cards cannot be rewound.'}
      </p>
      <label htmlFor="settings-checkpoint-storage">Checkpoint storage (MiB)</label>
      <input
        id="settings-checkpoint-storage"
        data-testid="checkpoint-storage-input"
        type="number"
        min={MIN_MIB}
        max={MAX_MIB}
        step={1}
        value={text}
        disabled={!enabled}
        aria-describedby="settings-checkpoint-storage-note"
        aria-invalid={error !== null}
        title={`What one session's checkpoints may take on disk (${MIN_MIB}–${MAX_MIB} MiB)`}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <p
        className={`settings-wide ${error ? 'mode-danger' : 'card-note'}`}
        id="settings-checkpoint-storage-note"
        data-testid="checkpoint-storage-note"
        role={error ? 'alert' : undefined}
      >
        {error ??
          "Past this, a session's oldest checkpoints are removed (the panel says how many), and the cards before them can no longer be rewound."}
      </p>
    </>
  );
}
