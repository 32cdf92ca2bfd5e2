import { z } from 'zod';
import type { RewindFileConflict } from './rewind.ts';

// The Changes card at the end of a turn: every file the turn changed (by any tool, commands
// included), from the checkpoint before its first changing call to the record after its last, with
// +/− line counts and a unified diff; and the revert of one file or all of them back to that first
// checkpoint, with the person's choice for each file they changed since.

export type ChangedFileStatus = 'added' | 'modified' | 'deleted';

export interface ChangedFile {
  path: string;
  status: ChangedFileStatus;
  added: number;
  removed: number;
  /** The unified diff (file headers, hunks); '' when there is none to show (binary, link, mode only, too large). */
  diff: string;
  /** Why there is no diff, in words ("binary file", "symbolic link", "mode changed"), or null. */
  note: string | null;
  /** Over the size limit, recorded by hash only: a revert cannot bring its bytes back. */
  not_restorable: boolean;
  /** The agents (children started by the turn's `agent` calls) whose calls changed the file; absent: none. */
  agents?: string[];
  /** The file now: as the turn left it, back as before the turn (reverted), changed since, or not known (links, large files). */
  now?: 'after' | 'before' | 'changed' | 'unknown';
}

export interface TurnChanges {
  turn_id: string;
  /** The checkpoint the turn's files go back to on revert; null when the turn changed nothing. */
  checkpoint: string | null;
  files: ChangedFile[];
}

export interface ChangesRevertRequest {
  turn_id: string;
  /** The files to revert; absent: every file the turn changed. */
  paths?: string[];
  /** The person's choice per file they changed since the turn. */
  choices?: Record<string, 'keep' | 'take'>;
  /** Revert only this hunk (0-based, in the file's diff) of the one file in `paths`. */
  hunk?: number;
}

export interface ChangesRevertDone {
  /** Files the person changed since the turn, without a choice yet: nothing was reverted; ask, then send again. */
  conflicts: RewindFileConflict[];
  /** The checkpoint that undoes the revert (a code rewind to it); null when nothing was reverted. */
  undo: string | null;
  restored: string[];
  removed: string[];
  kept: string[];
  not_restorable: string[];
}

const turnId = z.string().min(1).max(256);
const filePath = z.string().min(1).max(4096);

export const turnChangesRequestSchema = z.object({ turn_id: turnId }).strict();
export const changesRevertRequestSchema = z
  .object({
    turn_id: turnId,
    paths: z.array(filePath).min(1).max(10_000).optional(),
    choices: z.record(filePath, z.enum(['keep', 'take'])).optional(),
    hunk: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();
