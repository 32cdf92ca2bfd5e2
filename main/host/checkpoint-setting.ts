import { z } from 'zod';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../agent/tool-limits.ts';
import type { CheckpointSettings } from '../tools/checkpoints/checkpoint-store.ts';
import type { StoredSettings } from './settings-store.ts';

// The checkpoint settings as they are now: on or off, and the storage bound of a session's
// checkpoints. Every session the panel opens reads them before each call that may change the
// workspace, so a change applies from the next call on, without reopening anything.

const MIB = 1024 * 1024;
export const DEFAULT_CHECKPOINT_STORAGE_MIB = DEFAULT_CHECKPOINT_SETTINGS.maxStorageBytes / MIB;
/** Less than this could not hold even a small workspace's first checkpoint. */
export const MIN_CHECKPOINT_STORAGE_MIB = 16;
/** 1 TiB. */
export const MAX_CHECKPOINT_STORAGE_MIB = 1024 * 1024;

export const DEFAULT_CHECKPOINT_MAX_FILE_MIB = DEFAULT_CHECKPOINT_SETTINGS.maxFileBytes / MIB;
/** A file under the limit is read whole into memory to be stored: 1 GiB at most. */
export const MAX_CHECKPOINT_FILE_MIB = 1024;

/** The checkpoint_max_file_mib setting: whole MiB. */
export const checkpointMaxFileMibSchema = z
  .number()
  .int('The largest file a checkpoint keeps is a whole number of MiB')
  .min(1, 'The largest file a checkpoint keeps is at least 1 MiB')
  .max(MAX_CHECKPOINT_FILE_MIB, `The largest file a checkpoint keeps is at most ${MAX_CHECKPOINT_FILE_MIB} MiB`);

/** The checkpoint_storage_mib setting: whole MiB. */
export const checkpointStorageMibSchema = z
  .number()
  .int('The checkpoint storage limit is a whole number of MiB')
  .min(MIN_CHECKPOINT_STORAGE_MIB, `The checkpoint storage limit is at least ${MIN_CHECKPOINT_STORAGE_MIB} MiB`)
  .max(MAX_CHECKPOINT_STORAGE_MIB, `The checkpoint storage limit is at most ${MAX_CHECKPOINT_STORAGE_MIB} MiB (1 TiB)`);

export class CheckpointSetting {
  private enabled = true;
  private storageMib = DEFAULT_CHECKPOINT_STORAGE_MIB;
  private maxFileMib = DEFAULT_CHECKPOINT_MAX_FILE_MIB;

  /** Takes the values from the settings (absent: the defaults). */
  apply(
    settings: Pick<StoredSettings, 'checkpoints_enabled' | 'checkpoint_storage_mib' | 'checkpoint_max_file_mib'>,
  ): void {
    this.enabled = settings.checkpoints_enabled ?? true;
    this.storageMib = settings.checkpoint_storage_mib ?? DEFAULT_CHECKPOINT_STORAGE_MIB;
    this.maxFileMib = settings.checkpoint_max_file_mib ?? DEFAULT_CHECKPOINT_MAX_FILE_MIB;
  }

  /** What a session's checkpoints follow now. */
  readonly current = (): CheckpointSettings & { enabled: boolean } => ({
    ...DEFAULT_CHECKPOINT_SETTINGS,
    maxStorageBytes: this.storageMib * MIB,
    maxFileBytes: this.maxFileMib * MIB,
    enabled: this.enabled,
  });
}
