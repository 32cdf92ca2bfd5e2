import type { ObjectStore } from './object-store.ts';
import { planRestore, type RestorePlan } from './restore.ts';

// The conflict check of a rewind: which of the files a rewind would change were changed since its
// checkpoint by someone other than the agent (the person in their editor, another program).
//
// The store records the workspace before each call that may change it and again after the call
// (that record `closes` the one before). Between a "before" and the "after" that closes it, the
// agent changed the files; every other step of the list — from an "after" to the next "before",
// or to the present — is someone else's. A call that never got its "after" (the app stopped
// mid-way) counts as someone else's too: a conflict shown too often costs a question, one missed
// costs the person's work.

/** What a rewind does to a file the person changed. */
export type ConflictAction = 'restore' | 'remove';

export interface RewindConflict {
  path: string;
  action: ConflictAction;
}

/** Per conflicting file: keep the person's version, or take the checkpoint's. */
export type ConflictChoice = 'keep' | 'take';

/** Either one choice for every conflict, or one per path. */
export type ConflictResolution = ConflictChoice | Readonly<Record<string, ConflictChoice>>;

export interface RecordedState {
  id: string;
  tree: string;
  /** Set on a record taken after a change: the id of the record taken just before it. */
  closes?: string;
}

/** Files (not folders) that differ between two trees. */
export async function changedFiles(store: ObjectStore, from: string, to: string): Promise<Set<string>> {
  const plan = await planRestore(store, from, to);
  const changed = new Set<string>();
  for (const { path, entry } of [...plan.removals, ...plan.writes]) if (entry.kind !== 'dir') changed.add(path);
  return changed;
}

/**
 * The conflicts of a rewind to `states[0]`, where `states` runs from that checkpoint to the
 * present (the last state) and `plan` goes from the present back to the first.
 */
export async function findConflicts(
  store: ObjectStore,
  states: readonly RecordedState[],
  plan: RestorePlan,
): Promise<RewindConflict[]> {
  const touched = new Set<string>();
  for (let index = 0; index + 1 < states.length; index += 1) {
    const from = states[index];
    const to = states[index + 1];
    if (!from || !to || to.closes === from.id) continue;
    for (const file of await changedFiles(store, from.tree, to.tree)) touched.add(file);
  }
  const conflicts = new Map<string, ConflictAction>();
  for (const { path, entry } of plan.removals)
    if (entry.kind !== 'dir' && touched.has(path)) conflicts.set(path, 'remove');
  for (const { path, entry } of plan.writes)
    if (entry.kind !== 'dir' && touched.has(path)) conflicts.set(path, 'restore');
  return [...conflicts].map(([path, action]) => ({ path, action })).sort((a, b) => a.path.localeCompare(b.path));
}

/** The choice for one conflicting path, or null when the resolution does not name it. */
export function choiceFor(resolution: ConflictResolution | undefined, path: string): ConflictChoice | null {
  if (resolution === undefined) return null;
  if (typeof resolution === 'string') return resolution;
  return resolution[path] ?? null;
}

/** The plan without the files the person keeps. */
export function withoutKept(plan: RestorePlan, kept: ReadonlySet<string>): RestorePlan {
  if (kept.size === 0) return plan;
  return {
    removals: plan.removals.filter((step) => !kept.has(step.path)),
    writes: plan.writes.filter((step) => !kept.has(step.path)),
  };
}

export class RewindConflictError extends Error {
  readonly conflicts: RewindConflict[];

  constructor(conflicts: RewindConflict[]) {
    super(
      `${conflicts.length} file(s) were changed since this checkpoint by someone other than the agent: ` +
        `${conflicts.map((conflict) => conflict.path).join(', ')}. ` +
        'Choose for each whether to keep your version or take the checkpoint’s, then rewind again.',
    );
    this.name = 'RewindConflictError';
    this.conflicts = conflicts;
  }
}
