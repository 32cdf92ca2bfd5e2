import { useEffect, useState } from 'react';
import type { SettingsPatch } from '../../protocol/api.ts';
import { useActions } from '../actions.ts';

// Checkpoints (checkpoints_enabled, checkpoint_storage_mib, checkpoint_max_file_mib): whether the
// workspace is recorded before every write, command or Code Mode call, how much disk a session's
// checkpoints may take before the oldest are pruned, and the largest file they keep the bytes of.
// The main process holds the same bounds and has the last word.

export const DEFAULT_CHECKPOINT_MIB = 2048;
export const DEFAULT_CHECKPOINT_FILE_MIB = 50;

interface Props {
  enabled: boolean;
  mib: number;
  fileMib: number;
}

export function CheckpointFields({ enabled, mib, fileMib }: Props) {
  const actions = useActions();
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
      <MibField
        id="checkpoint-storage"
        label="Checkpoint storage (MiB)"
        value={mib}
        min={16}
        max={1024 * 1024}
        disabled={!enabled}
        note="Past this, a session's oldest checkpoints are removed (the panel says how many), and the cards before them can no longer be rewound."
        patch={(value) => ({ checkpoint_storage_mib: value })}
      />
      <MibField
        id="checkpoint-max-file"
        label="Largest file a checkpoint keeps (MiB)"
        value={fileMib}
        min={1}
        max={1024}
        disabled={!enabled}
        note="A bigger file is recorded by its hash only: a rewind leaves it as it is and names it as not restorable."
        patch={(value) => ({ checkpoint_max_file_mib: value })}
      />
    </>
  );
}

interface MibProps {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  disabled: boolean;
  note: string;
  patch: (value: number) => SettingsPatch;
}

/** A whole number of MiB: a value out of bounds is refused with what is allowed, and the field goes back. */
function MibField({ id, label, value, min, max, disabled, note, patch }: MibProps) {
  const actions = useActions();
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(value)), [value]);
  const commit = (): void => {
    const next = Number(text);
    if (!Number.isInteger(next) || next < min || next > max) {
      setError(`Give a whole number of MiB from ${min} to ${max}; it stays at ${value} MiB.`);
      setText(String(value));
      return;
    }
    setError(null);
    if (next !== value) void actions.updateSettings(patch(next));
  };
  return (
    <>
      <label htmlFor={`settings-${id}`}>{label}</label>
      <input
        id={`settings-${id}`}
        data-testid={`${id}-input`}
        type="number"
        min={min}
        max={max}
        step={1}
        value={text}
        disabled={disabled}
        aria-describedby={`settings-${id}-note`}
        aria-invalid={error !== null}
        title={`${label}: ${min}–${max}`}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <p
        className={`settings-wide ${error ? 'mode-danger' : 'card-note'}`}
        id={`settings-${id}-note`}
        data-testid={`${id}-note`}
        role={error ? 'alert' : undefined}
      >
        {error ?? note}
      </p>
    </>
  );
}
