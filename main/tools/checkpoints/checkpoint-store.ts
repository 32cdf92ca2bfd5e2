import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { formatBytes } from '../../../protocol/format.ts';
import { DEFAULT_CHECKPOINT_MAX_FILE_MIB, DEFAULT_CHECKPOINT_STORAGE_MIB } from '../../../protocol/settings.ts';
import { ObjectStore } from './object-store.ts';
import {
  choiceFor,
  findConflicts,
  RewindConflictError,
  withoutKept,
  type ConflictResolution,
  type RewindConflict,
} from './conflicts.ts';
import { applyRestore, planRestore, type RestorePlan, type RestoreReport } from './restore.ts';
import { FolderWatch } from './folder-watch.ts';
import { scanWorkspace, type ScanState } from './workspace-scan.ts';
import { touchedPath } from './touched-records.ts';
import { PendingRecords } from './pending-records.ts';

// A session's checkpoints: snapshots of its workspace kept in the session's own folder, never in
// the workspace (its .git is never read or written) and without needing git. Why not a shadow git
// repository, as other agents use: git refuses to track a nested repository's files (it records a
// link to the other repository instead), and the known workaround — renaming each nested `.git`
// away while committing — breaks the person's repositories when the process dies mid-way. Our own
// content-addressed store has no such case: it reads files, never `.git`.
//
// Layout under the folder: `objects/` (object-store.ts) and `list/NNNNNN-ID.json`, one small
// record per checkpoint, written by rename, so the list is whole after a crash.

export interface CheckpointSettings {
  /** The store's size limit; past it the oldest checkpoints are pruned. */
  maxStorageBytes: number;
  /** Files over this are recorded by hash only (not restorable). */
  maxFileBytes: number;
}

/** The checkpoint_storage_mib and checkpoint_max_file_mib settings' defaults. */
export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = {
  maxStorageBytes: DEFAULT_CHECKPOINT_STORAGE_MIB * 1024 * 1024,
  maxFileBytes: DEFAULT_CHECKPOINT_MAX_FILE_MIB * 1024 * 1024,
};

export interface Checkpoint {
  id: string;
  seq: number;
  /** The workspace's root tree. */
  tree: string;
  created_at: string;
  /** What it was taken before, in words: "before write_file", "before rewind". */
  label: string;
  call_id?: string;
  /** Set on a record taken after a change (a call, a rewind): the id of the record taken just before it. */
  closes?: string;
  files: number;
  /** Files recorded by hash only (over the size limit). */
  not_restorable: string[];
}

export interface RecordOutcome {
  checkpoint: Checkpoint;
  /** Files read this time (the rest kept their hash from the last scan). */
  read: number;
  /** Folders listed this time (the rest were known unchanged from the workspace's watch). */
  listed: number;
  /** Set when the storage limit pruned older checkpoints. */
  notice?: string;
  /** The checkpoints the storage limit removed (oldest first). */
  pruned?: Checkpoint[];
}

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

export class CheckpointStore {
  readonly folder: string;
  readonly workspace: string;
  /** Read at each checkpoint: a new storage limit applies from the next one (which prunes down to it). */
  settings: CheckpointSettings;
  /** The content-addressed objects (read-only use outside: diffs of a turn's changes). */
  readonly objects: ObjectStore;
  private readonly checkpoints: Checkpoint[];
  private state: ScanState = new Map();
  /** Which folders changed between scans (Linux); without it every file is stat'ed. */
  private readonly watch: FolderWatch;
  /** Set when opening finished a rewind a crash had interrupted: what to tell the person. */
  recoveryNotice: string | null = null;
  /** Checkpoints pruned since `takePruned` was last called (by any record: after a call, a rewind's). */
  private unreported: Checkpoint[] = [];
  /** Recording and rewinding run one at a time: each sees the other's result. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The next record's sequence number (pending records take theirs when they are made). */
  private nextSeq: number;
  /** Records of calls whose changes are known, made before the first whole record in this process ended. */
  private readonly pending: PendingRecords;
  /** The whole record the pending ones wait for, running in the queue. */
  private baseline: Promise<void> | null = null;
  /** Why the last whole record for the pending ones failed: calls then wait for one, and are refused with it. */
  private baselineError: Error | null = null;

  private constructor(
    folder: string,
    workspace: string,
    settings: CheckpointSettings,
    objects: ObjectStore,
    list: Checkpoint[],
  ) {
    this.folder = folder;
    this.workspace = workspace;
    this.settings = settings;
    this.objects = objects;
    this.checkpoints = list;
    this.nextSeq = (list.at(-1)?.seq ?? 0) + 1;
    this.watch = new FolderWatch(workspace, path.join(folder, 'watch'));
    this.pending = new PendingRecords(folder, workspace, objects);
  }

  /** Opens (or creates) the store in `folder` for the workspace at `workspace`. */
  static async open(
    folder: string,
    workspace: string,
    settings: CheckpointSettings = DEFAULT_CHECKPOINT_SETTINGS,
  ): Promise<CheckpointStore> {
    const listFolder = path.join(folder, 'list');
    await mkdir(listFolder, { recursive: true, mode: 0o700 });
    const objects = await ObjectStore.open(path.join(folder, 'objects'));
    const list: Checkpoint[] = [];
    for (const name of (await readdir(listFolder)).sort()) {
      if (!name.endsWith('.json')) continue;
      const text = await readFile(path.join(listFolder, name), 'utf8').catch(() => null);
      const record = text === null ? null : parseRecord(text);
      if (record && objects.has(record.tree)) list.push(record);
    }
    const store = new CheckpointStore(folder, await realpath(workspace), settings, objects, list);
    await store.reopenPending();
    store.recoveryNotice = await store.finishInterruptedRewind();
    return store;
  }

  /** Stops watching the workspace (the store stays usable: its scans then stat every file). */
  close(): void {
    this.watch.close();
  }

  /**
   * Once every pending record is an ordinary one (its whole record finished): what a rewind, the
   * Changes card or a host that closes the session waits for. Never throws: a record that cannot
   * be finished stays pending, and a rewind to it says why.
   */
  settled(): Promise<void> {
    if (!this.pending.any && this.baseline === null) return Promise.resolve();
    return this.serial(async () => {
      if (this.pending.any) await this.recordNow(null);
    }).catch(() => undefined);
  }

  /**
   * Before a call that changes only `touches` (real paths): while the workspace's first whole record
   * in this process is not finished, records those files alone (stored before this returns) and
   * starts the whole record in the background; the record becomes an ordinary one when it ends.
   * Null when the call must wait for a whole record (one was taken, or failed, or a path is not a
   * plain file's). Throws when a file cannot be read or stored.
   */
  async recordTouching(label: string, callId: string, touches: readonly string[]): Promise<Checkpoint | null> {
    if (this.pending.done || this.baselineError) return null;
    const relative = touches.map((touched) => touchedPath(this.workspace, touched));
    if (relative.some((entry) => entry === null)) return null;
    const { running } = this.pending;
    running.add(callId);
    const checkpoint = await this.pendingRecord(() =>
      this.pending.make({ label, call_id: callId }, this.takeSeq(), relative as string[], this.settings.maxFileBytes),
    ).catch((error: unknown) => {
      running.end(callId);
      throw error;
    });
    if (!checkpoint) running.end(callId);
    return checkpoint;
  }

  /** Makes a pending record, with the whole record it waits for in line behind it. */
  private pendingRecord(make: () => Promise<Checkpoint | null>): Promise<Checkpoint | null> {
    const made = make();
    this.baseline ??= this.serial(async () => (this.pending.any ? this.recordNow(null) : null)).then(
      () => {
        this.baseline = null;
      },
      (error: unknown) => {
        this.baseline = null;
        this.baselineError = error instanceof Error ? error : new Error(String(error));
      },
    );
    return made;
  }

  private takeSeq(): number {
    this.nextSeq += 1;
    return this.nextSeq - 1;
  }

  /** At open: pending records a stop left (their whole record never ended) are finished on a record taken now. */
  private async reopenPending(): Promise<void> {
    const highest = await this.pending.reopen((id) => this.get(id) !== undefined);
    this.nextSeq = Math.max(this.nextSeq, highest + 1);
    if (this.pending.any) await this.serial(() => this.recordNow(null)).catch(() => undefined);
  }

  list(): readonly Checkpoint[] {
    return this.checkpoints;
  }

  get(id: string): Checkpoint | undefined {
    return this.checkpoints.find((checkpoint) => checkpoint.id === id);
  }

  /** Bytes the store holds on disk. */
  get storageBytes(): number {
    return this.objects.totalBytes;
  }

  /** Snapshots the workspace now. Throws (with what to do) when a file cannot be read or stored. */
  record(label: string, callId?: string): Promise<RecordOutcome> {
    return this.serial(() => this.recordNow(label, callId));
  }

  /**
   * Snapshots the workspace after the change that record `before` preceded: what changed between
   * the two is the agent's, which the conflict check of a later rewind tells from the person's.
   */
  recordAfter(before: string, label: string): Promise<RecordOutcome> {
    return this.serial(() => this.recordNow(label, this.get(before)?.call_id, before));
  }

  /** As `recordAfter`; a call recorded by `recordTouching` gets its files alone recorded while it can. */
  async recordAfterCall(before: string, label: string): Promise<void> {
    try {
      const after = () => this.pending.after(before, label, () => this.takeSeq(), this.settings.maxFileBytes);
      if (await this.pendingRecord(after)) return;
    } finally {
      const callId = this.get(before)?.call_id ?? this.pending.callOf(before);
      if (callId !== undefined) this.pending.running.end(callId);
    }
    await this.recordAfter(before, label);
  }

  /** The checkpoint taken before call `callId` (not the record after it). */
  beforeCall(callId: string): Checkpoint | undefined {
    return this.checkpoints.find((entry) => entry.call_id === callId && entry.closes === undefined);
  }

  /** What rewinding to `id` would change, and which of those files the person changed, without changing anything. */
  preview(id: string, only?: ReadonlySet<string>): Promise<RewindPreview> {
    return this.serial(async () => {
      const target = this.require(id);
      const now = (await this.recordNow('before rewind')).checkpoint;
      const plan = onlyPaths(await planRestore(this.objects, now.tree, target.tree), only);
      return { ...plan, conflicts: await this.conflicts(target, plan) };
    });
  }

  /**
   * Brings every file back to its state at checkpoint `id`, after a checkpoint of the present.
   * Files someone other than the agent changed since are restored only as `resolve` says; when it
   * leaves one of them out, nothing is changed and a RewindConflictError lists them. With `only`,
   * just those files go back (a revert from the Changes card); every other file stays as it is.
   */
  rewind(id: string, resolve?: ConflictResolution, only?: ReadonlySet<string>): Promise<RewindOutcome> {
    return this.serial(async () => {
      const target = this.require(id);
      const undo = (await this.recordNow(`before rewind to ${id}`)).checkpoint;
      const full = onlyPaths(await planRestore(this.objects, undo.tree, target.tree), only);
      const conflicts = await this.conflicts(target, full);
      const open = conflicts.filter((conflict) => choiceFor(resolve, conflict.path) === null);
      if (open.length > 0) throw new RewindConflictError(open);
      const kept = conflicts.filter((conflict) => choiceFor(resolve, conflict.path) === 'keep').map((c) => c.path);
      const plan = withoutKept(full, new Set(kept));
      // The journal names where the rewind goes: a crash mid-way is finished on the next open,
      // so the workspace ends as before the rewind (journal not yet written) or after, never half.
      const journal = this.journalFile();
      await writeFile(
        `${journal}.tmp`,
        JSON.stringify({ target: target.id, tree: target.tree, undo: undo.id, ...(only ? { only: [...only] } : {}) }),
      );
      await rename(`${journal}.tmp`, journal);
      const report = await applyRestore(this.objects, this.workspace, plan);
      await rm(journal, { force: true });
      // The rewind's own changes are not the person's: the next conflict check must not list them.
      await this.recordNow(`after rewind to ${id}`, undefined, undo.id);
      return { undo, report, kept };
    });
  }

  /** The conflicts of a rewind to `target` along `plan` (from the newest record back to it). */
  private conflicts(target: Checkpoint, plan: RestorePlan): Promise<RewindConflict[]> {
    return findConflicts(this.objects, this.checkpoints, plan, this.checkpoints.indexOf(target));
  }

  /** Finishes a rewind a crash interrupted; returns the notice to show, or null when there was none. */
  private async finishInterruptedRewind(): Promise<string | null> {
    const text = await readFile(this.journalFile(), 'utf8').catch(() => null);
    if (text === null) return null;
    const parsed = journalSchema.safeParse(parseJson(text));
    if (!parsed.success || !this.objects.has(parsed.data.tree)) {
      await rm(this.journalFile(), { force: true });
      return 'An interrupted rewind was found but its record is unreadable: check the workspace, and rewind again if needed.';
    }
    // The half-done rewind and its finish are the rewind's changes, not the person's.
    const now = await this.recordNow('before finishing an interrupted rewind', undefined, parsed.data.undo);
    const only = parsed.data.only ? new Set(parsed.data.only) : undefined;
    const plan = onlyPaths(await planRestore(this.objects, now.checkpoint.tree, parsed.data.tree), only);
    await applyRestore(this.objects, this.workspace, plan);
    await rm(this.journalFile(), { force: true });
    await this.recordNow('after finishing an interrupted rewind', undefined, now.checkpoint.id);
    return (
      `A rewind to ${parsed.data.target} was interrupted (the app stopped mid-way) and has been finished now. ` +
      `To undo it, rewind to ${parsed.data.undo}.`
    );
  }

  private journalFile(): string {
    return path.join(this.folder, 'rewind-journal.json');
  }

  private require(id: string): Checkpoint {
    const found = this.get(id);
    if (!found && this.pending.has(id))
      throw new Error(
        `Checkpoint ${id} waits for a record of the whole workspace that could not be taken` +
          `${this.baselineError ? ` (${this.baselineError.message})` : ''}. Fix that, then rewind again.`,
      );
    if (!found)
      throw new Error(
        `No checkpoint ${id} in this session: it was pruned by the storage limit or never taken. ` +
          'Choose a later card to rewind to.',
      );
    return found;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async recordNow(label: string, callId?: string, closes?: string): Promise<RecordOutcome>;
  private async recordNow(label: null): Promise<null>;
  /** Scans the workspace, finishes the pending records on it, and records it (unless `label` is null). */
  private async recordNow(label: string | null, callId?: string, closes?: string): Promise<RecordOutcome | null> {
    const changes = await this.watch.take();
    const scan = await scanWorkspace({
      workspace: this.workspace,
      store: this.objects,
      maxFileBytes: this.settings.maxFileBytes,
      previous: this.state,
      changes,
      watch: this.watch,
      giveWay: () => this.pending.running.quiet(),
    }).catch((error: unknown) => {
      // The changes taken are not recorded yet: the next scan must look at them again.
      if (changes) this.watch.putBack(changes);
      throw error;
    });
    this.state = scan.folders;
    this.watch.keepOnly(new Set(scan.folders.keys()));
    this.baselineError = null;
    // Records of known changes made while these are finished are finished on the same tree (their
    // files are captured; any other change since is seen by the next record); then every record is whole.
    await this.pending.finishOn(scan.tree, (checkpoint) => this.keep(checkpoint));
    this.pending.done = true;
    if (label === null) {
      // The records just finished count against the storage limit too; the next card names what went.
      this.unreported.push(...(await this.prune()));
      return null;
    }
    const checkpoint: Checkpoint = {
      id: `cp-${randomBytes(6).toString('hex')}`,
      seq: this.takeSeq(),
      tree: scan.tree,
      created_at: new Date().toISOString(),
      label,
      ...(callId === undefined ? {} : { call_id: callId }),
      ...(closes === undefined ? {} : { closes }),
      files: scan.files,
      not_restorable: scan.notRestorable,
    };
    await this.keep(checkpoint);
    const pruned = await this.prune();
    this.unreported.push(...pruned);
    return {
      checkpoint,
      read: scan.read,
      listed: scan.listed,
      ...(pruned.length === 0 ? {} : { notice: this.prunedNotice(pruned), pruned }),
    };
  }

  /** Writes a record to the list (by rename: whole after a crash) and holds it. */
  private async keep(checkpoint: Checkpoint): Promise<void> {
    const file = this.recordFile(checkpoint);
    await writeFile(`${file}.tmp`, JSON.stringify(checkpoint), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    this.checkpoints.push(checkpoint);
  }

  /** Drops the oldest checkpoints until the store fits its limit (the newest always stays); returns them. */
  private async prune(): Promise<Checkpoint[]> {
    const pruned: Checkpoint[] = [];
    while (this.objects.totalBytes > this.settings.maxStorageBytes && this.checkpoints.length > 1) {
      const oldest = this.checkpoints.shift();
      if (!oldest) break;
      await rm(this.recordFile(oldest), { force: true });
      pruned.push(oldest);
      await this.objects.sweep(await this.objects.reachable(this.checkpoints.map((c) => c.tree)));
    }
    return pruned;
  }

  /** The checkpoints pruned since the last call of this (the next card's completion names them). */
  takePruned(): Checkpoint[] {
    return this.unreported.splice(0);
  }

  /** "3 old checkpoints pruned to stay under 2048 MiB: …" (one per call or rewind; a record after one is not counted). */
  prunedNotice(pruned: readonly Checkpoint[]): string {
    const count = pruned.filter((entry) => entry.closes === undefined).length || pruned.length;
    const limit = this.settings.maxStorageBytes;
    const shown = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : formatBytes(limit);
    return (
      `${count} old checkpoint${count === 1 ? '' : 's'} pruned to stay under ${shown}: ` +
      'the cards before them can no longer rewind the code. Raise the checkpoint storage limit in Settings to keep more.'
    );
  }

  private recordFile(checkpoint: Checkpoint): string {
    return path.join(this.folder, 'list', `${String(checkpoint.seq).padStart(6, '0')}-${checkpoint.id}.json`);
  }
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

const checkpointSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  tree: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
  label: z.string(),
  call_id: z.string().optional(),
  closes: z.string().optional(),
  files: z.number().int(),
  not_restorable: z.array(z.string()),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A record from disk, or null when it is not one (a torn or foreign file is skipped). */
function parseRecord(text: string): Checkpoint | null {
  const parsed = checkpointSchema.safeParse(parseJson(text));
  return parsed.success ? (parsed.data as Checkpoint) : null;
}
