import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseJson, type Checkpoint } from './checkpoint-list.ts';
import {
  choiceFor,
  findConflicts,
  RewindConflictError,
  withoutKept,
  type ConflictResolution,
  type RewindConflict,
} from './conflicts.ts';
import type { ObjectStore } from './object-store.ts';
import { applyRestore, planRestore, type RestorePlan, type RestoreReport } from './restore.ts';

// Rewinding a workspace to a checkpoint: what it would change, the files someone other than the
// agent changed since (conflicts.ts), and the journal in the store's folder that lets a rewind a
// crash cut short be finished at the next open, so the workspace is never left half rewound.

export interface RewindOutcome {
  /** The checkpoint of the workspace as it was just before the rewind: rewinding to it undoes it. */
  undo: Checkpoint;
  report: RestoreReport;
  /** Files the person changed since the checkpoint and chose to keep: left as they are. */
  kept: string[];
}

export interface RewindPreview extends RestorePlan {
  /** Files the rewind would change that someone other than the agent changed since the checkpoint. */
  conflicts: RewindConflict[];
}

/** What a rewind needs of its store (called in the store's queue). */
export interface RewindContext {
  objects: ObjectStore;
  workspace: string;
  /** The store's folder, where the journal is written. */
  folder: string;
  checkpoints: readonly Checkpoint[];
  /** Records the workspace now; `closes` marks the changes since that record as not the person's. */
  record(label: string, closes?: string): Promise<Checkpoint>;
}

/** What rewinding to `target` would change, and which of those files the person changed, without changing anything. */
export async function previewRewind(
  context: RewindContext,
  target: Checkpoint,
  only?: ReadonlySet<string>,
): Promise<RewindPreview> {
  const now = await context.record('before rewind');
  const plan = onlyPaths(await planRestore(context.objects, now.tree, target.tree), only);
  return { ...plan, conflicts: await conflictsOf(context, target, plan) };
}

/** The store's `rewind`, once its target is known. */
export async function rewindTo(
  context: RewindContext,
  target: Checkpoint,
  resolve?: ConflictResolution,
  only?: ReadonlySet<string>,
): Promise<RewindOutcome> {
  const undo = await context.record(`before rewind to ${target.id}`);
  const full = onlyPaths(await planRestore(context.objects, undo.tree, target.tree), only);
  const conflicts = await conflictsOf(context, target, full);
  const open = conflicts.filter((conflict) => choiceFor(resolve, conflict.path) === null);
  if (open.length > 0) throw new RewindConflictError(open);
  const kept = conflicts.filter((conflict) => choiceFor(resolve, conflict.path) === 'keep').map((c) => c.path);
  const plan = withoutKept(full, new Set(kept));
  // The journal names where the rewind goes: a crash mid-way is finished on the next open,
  // so the workspace ends as before the rewind (journal not yet written) or after, never half.
  const journal = journalFile(context);
  await writeFile(
    `${journal}.tmp`,
    JSON.stringify({ target: target.id, tree: target.tree, undo: undo.id, ...(only ? { only: [...only] } : {}) }),
  );
  await rename(`${journal}.tmp`, journal);
  const report = await applyRestore(context.objects, context.workspace, plan);
  await rm(journal, { force: true });
  // The rewind's own changes are not the person's: the next conflict check must not list them.
  await context.record(`after rewind to ${target.id}`, undo.id);
  return { undo, report, kept };
}

/** Finishes a rewind a crash interrupted; returns the notice to show, or null when there was none. */
export async function finishInterruptedRewind(context: RewindContext): Promise<string | null> {
  const journal = journalFile(context);
  const text = await readFile(journal, 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = journalSchema.safeParse(parseJson(text));
  if (!parsed.success || !context.objects.has(parsed.data.tree)) {
    await rm(journal, { force: true });
    return 'An interrupted rewind was found but its record is unreadable: check the workspace, and rewind again if needed.';
  }
  // The half-done rewind and its finish are the rewind's changes, not the person's.
  const now = await context.record('before finishing an interrupted rewind', parsed.data.undo);
  const only = parsed.data.only ? new Set(parsed.data.only) : undefined;
  const plan = onlyPaths(await planRestore(context.objects, now.tree, parsed.data.tree), only);
  await applyRestore(context.objects, context.workspace, plan);
  await rm(journal, { force: true });
  await context.record('after finishing an interrupted rewind', now.id);
  return (
    `A rewind to ${parsed.data.target} was interrupted (the app stopped mid-way) and has been finished now. ` +
    `To undo it, rewind to ${parsed.data.undo}.`
  );
}

/** The conflicts of a rewind to `target` along `plan` (from the newest record back to it). */
function conflictsOf(context: RewindContext, target: Checkpoint, plan: RestorePlan): Promise<RewindConflict[]> {
  return findConflicts(context.objects, context.checkpoints, plan, context.checkpoints.indexOf(target));
}

function journalFile(context: RewindContext): string {
  return path.join(context.folder, 'rewind-journal.json');
}

/** The plan's steps for the files in `only` (all of it when `only` is absent); folders stay so new files have one. */
function onlyPaths(plan: RestorePlan, only: ReadonlySet<string> | undefined): RestorePlan {
  if (!only) return plan;
  const keep = (step: RestorePlan['writes'][number]) => (step.entry.kind === 'dir' ? false : only.has(step.path));
  const wanted = (step: RestorePlan['writes'][number]) =>
    keep(step) || (step.entry.kind === 'dir' && [...only].some((file) => file.startsWith(`${step.path}/`)));
  return { removals: plan.removals.filter(keep), writes: plan.writes.filter(wanted) };
}

const journalSchema = z.object({
  target: z.string(),
  tree: z.string(),
  undo: z.string(),
  only: z.array(z.string()).optional(),
});
