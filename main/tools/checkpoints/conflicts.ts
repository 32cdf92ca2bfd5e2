import type { ObjectStore } from './object-store.ts';
import { planRestore, type RestorePlan } from './restore.ts';

// The conflict check of a rewind: which of the files a rewind would change were changed since its
// checkpoint by someone other than the agent (the person in their editor, another program).
//
// The store records the workspace before each call that may change it and again after the call
// (that record `closes` the one before). Between a "before" and the "after" that closes it, the
// agent changed the files; every other step of the list — from an "after" to the next "before",
// or to the present — is someone else's. Calls that run side by side (an agent's children) are
// each between their own two records: a step inside any of them is the agent's. A call that never got its "after" (the app stopped
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
 * The conflicts of a rewind to `states[from]`, where `states` runs in the order recorded to the
 * present (the last state) and `plan` goes from the present back to `states[from]`. Calls may
 * overlap (an agent's children run side by side, each call between its own two records): a step
 * from one record to the next is the agent's while any call is open across it, someone else's
 * when none is. Records before `from` count only for the calls they open.
 */
export async function findConflicts(
  store: ObjectStore,
  states: readonly RecordedState[],
  plan: RestorePlan,
  from = 0,
): Promise<RewindConflict[]> {
  const agents = agentSteps(states);
  const touched = new Set<string>();
  for (let index = from; index + 1 < states.length; index += 1) {
    const before = states[index];
    const after = states[index + 1];
    if (!before || !after || agents[index]) continue;
    for (const file of await changedFiles(store, before.tree, after.tree)) touched.add(file);
  }
  const conflicts = new Map<string, ConflictAction>();
  for (const { path, entry } of plan.removals)
    if (entry.kind !== 'dir' && touched.has(path)) conflicts.set(path, 'remove');
  for (const { path, entry } of plan.writes)
    if (entry.kind !== 'dir' && touched.has(path)) conflicts.set(path, 'restore');
  return [...conflicts].map(([path, action]) => ({ path, action })).sort((a, b) => a.path.localeCompare(b.path));
}

/** For each step from `states[i]` to `states[i + 1]`: whether a call was open across it (its two records around the step). */
function agentSteps(states: readonly RecordedState[]): boolean[] {
  const at = new Map(states.map((state, index) => [state.id, index]));
  // +1 where a call opens, −1 where it closes: a running sum above 0 is a call open across the step.
  const delta = new Array<number>(states.length + 1).fill(0);
  for (const [index, state] of states.entries()) {
    const opened = state.closes === undefined ? undefined : at.get(state.closes);
    if (opened === undefined || opened >= index) continue;
    delta[opened] = (delta[opened] ?? 0) + 1;
    delta[index] = (delta[index] ?? 0) - 1;
  }
  const open: boolean[] = [];
  let running = 0;
  for (let index = 0; index < states.length; index += 1) {
    running += delta[index] ?? 0;
    open.push(running > 0);
  }
  return open;
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
