import { settingDefault } from '../../protocol/settings.ts';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../agent/tool-limits.ts';
import type { CheckpointSettings } from '../tools/checkpoints/checkpoint-store.ts';
import type { StoredSettings } from './settings-store.ts';

// The checkpoint settings as they are now: on or off, and the storage bound of a session's
// checkpoints. Every session the panel opens reads them before each call that may change the
// workspace, so a change applies from the next call on, without reopening anything.

const MIB = 1024 * 1024;

export class CheckpointSetting {
  private enabled = settingDefault('checkpoints_enabled');
  private storageMib = settingDefault('checkpoint_storage_mib');
  private maxFileMib = settingDefault('checkpoint_max_file_mib');

  /** Takes the values from the settings (absent: the defaults). */
  apply(
    settings: Partial<
      Pick<StoredSettings, 'checkpoints_enabled' | 'checkpoint_storage_mib' | 'checkpoint_max_file_mib'>
    >,
  ): void {
    this.enabled = settings.checkpoints_enabled ?? settingDefault('checkpoints_enabled');
    this.storageMib = settings.checkpoint_storage_mib ?? settingDefault('checkpoint_storage_mib');
    this.maxFileMib = settings.checkpoint_max_file_mib ?? settingDefault('checkpoint_max_file_mib');
  }

  /** What a session's checkpoints follow now. */
  readonly current = (): CheckpointSettings & { enabled: boolean } => ({
    ...DEFAULT_CHECKPOINT_SETTINGS,
    maxStorageBytes: this.storageMib * MIB,
    maxFileBytes: this.maxFileMib * MIB,
    enabled: this.enabled,
  });
}
