import { z } from 'zod';

// Rewind from the panel: the code back to a checkpoint, the conversation into a fork, or both. The
// panel first asks for a preview (what would change, which files the person changed since), shows
// it with a choice per conflicting file, then applies with those choices.

export const REWIND_MODES = ['code', 'conversation', 'both'] as const;
export type RewindMode = (typeof REWIND_MODES)[number];

export interface RewindRequest {
  /** A call id (a card), a turn id (a message of the person) or a checkpoint id (an undo). */
  target: string;
  mode: RewindMode;
}

export interface RewindFileConflict {
  path: string;
  /** What the rewind would do to the person's version: bring the checkpoint's back, or remove the file. */
  action: 'restore' | 'remove';
}

export interface RewindPreview {
  mode: RewindMode;
  /** The checkpoint the code goes back to; null when the code has nothing to rewind (or mode is conversation). */
  checkpoint: string | null;
  /** Files the code rewind writes back and removes. */
  restore: string[];
  remove: string[];
  /** Files changed since by someone other than the agent: each needs a choice. */
  conflicts: RewindFileConflict[];
  /** Files over the size limit, recorded by hash only: left as they are. */
  not_restorable: string[];
  /** The message of the person the conversation goes back before (conversation, both). */
  message: string | null;
}

export type RewindChoice = 'keep' | 'take';

export interface RewindApply extends RewindRequest {
  /** The person's choice per conflicting file. */
  choices?: Record<string, RewindChoice>;
  /** What the person pointed at, in words, for the rewind's card ("write_file notes.md"). */
  what?: string;
}

export interface RewindDone {
  mode: RewindMode;
  /** The checkpoint that undoes the code rewind (rewind to it with mode code); null when no code changed. */
  undo: string | null;
  restored: string[];
  removed: string[];
  /** Conflicting files left as the person had them. */
  kept: string[];
  not_restorable: string[];
  /** The forked session (conversation, both): the panel opens it. */
  fork: string | null;
  /** Its rewound message, for the composer. */
  message: string | null;
}

const target = z.string().min(1).max(256);
const mode = z.enum(REWIND_MODES);

export const rewindRequestSchema = z.object({ target, mode }).strict();
export const rewindApplySchema = z
  .object({
    target,
    mode,
    choices: z.record(z.string().min(1).max(4096), z.enum(['keep', 'take'])).optional(),
    what: z.string().max(600).optional(),
  })
  .strict();
