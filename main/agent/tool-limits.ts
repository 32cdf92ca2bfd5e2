import { DEFAULT_MAX_EDIT_BYTES, MIB } from '../tools/files/file-versions.ts';
import type { ProcessLimits } from '../tools/processes/process-table.ts';

// The tools' limits and defaults that a person may set (settings.json, the panel's Settings):
// what the settings default to and are checked against, as the tools themselves define them.

export { DEFAULT_CHECKPOINT_SETTINGS } from '../tools/checkpoints/checkpoint-store.ts';
export { ENV_NAME_PATTERN } from '../tools/exec/command-env.ts';
export { DEFAULT_MAX_EDIT_BYTES, MAX_EDIT_FILE_MIB, MIB } from '../tools/files/file-versions.ts';

/** The largest file write_file and patch_file read whole, in bytes, for the setting in MiB (absent: the default). */
export function maxEditBytes(mib: number | undefined): number {
  return (mib ?? DEFAULT_MAX_EDIT_BYTES / MIB) * MIB;
}

/** How many background processes may run in a session and how much of their output is kept, from the settings. */
export function processLimits(settings: {
  processes_max: number;
  process_output_disk_mib: number;
  process_output_memory_kib: number;
}): ProcessLimits {
  return {
    maxRunning: settings.processes_max,
    output: {
      diskBytes: settings.process_output_disk_mib * MIB,
      memoryBytes: settings.process_output_memory_kib * 1024,
    },
  };
}
