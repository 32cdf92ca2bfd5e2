import { settingLabel } from '../../protocol/settings.ts';
import { useActions } from '../actions.ts';
import { NumberSetting } from './SettingFields.tsx';

// Checkpoints (checkpoints_enabled, checkpoint_storage_mib, checkpoint_max_file_mib): whether the
// workspace is recorded before every write, command or Code Mode call, how much disk a session's
// checkpoints may take before the oldest are pruned, and the largest file they keep the bytes of.
// The main process holds the same bounds and has the last word.

interface Props {
  enabled: boolean;
  mib: number;
  fileMib: number;
}

export function CheckpointFields({ enabled, mib, fileMib }: Props) {
  const actions = useActions();
  return (
    <>
      <label htmlFor="settings-checkpoints">{settingLabel('checkpoints_enabled')}</label>
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
      <NumberSetting
        name="checkpoint_storage_mib"
        slug="checkpoint-storage"
        value={mib}
        disabled={!enabled}
        help="note"
      />
      <NumberSetting
        name="checkpoint_max_file_mib"
        slug="checkpoint-max-file"
        value={fileMib}
        disabled={!enabled}
        help="note"
      />
    </>
  );
}
