import { randomBytes } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_CHECKPOINT_MAX_FILE_MIB, DEFAULT_CHECKPOINT_STORAGE_MIB } from '../../../protocol/settings.ts';
import { CheckpointList, prunedNotice, type Checkpoint } from './checkpoint-list.ts';
import type { ConflictResolution } from './conflicts.ts';
import { FolderWatch } from './folder-watch.ts';
import { ObjectStore } from './object-store.ts';
import { PendingRecords } from './pending-records.ts';
import {
  finishInterruptedRewind,
  previewRewind,
  rewindTo,
  type RewindContext,
  type RewindOutcome,
  type RewindPreview,
} from './rewind.ts';
import { touchedPath } from './touched-records.ts';
import { scanWorkspace, type ScanState } from './workspace-scan.ts';

export type { Checkpoint } from './checkpoint-list.ts';
export type { RewindOutcome, RewindPreview } from './rewind.ts';

// A session's checkpoints: snapshots of its workspace kept in the session's own folder, never in
// the workspace (its .git is never read or written) and without needing git. Why not a shadow git
// repository, as other agents use: git refuses to track a nested repository's files (it records a
// link to the other repository instead), and the known workaround — renaming each nested `.git`
// away while committing — breaks the person's repositories when the process dies mid-way. Our own
// content-addressed store has no such case: it reads files, never `.git`.
//
// Layout under the folder: `objects/` (object-store.ts), `list/` (checkpoint-list.ts), `pending/`
// (touched-records.ts) and, while a rewind runs, its journal (rewind.ts). This class orders the
// records and rewinds, one at a time, and scans the workspace for each.

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

export class CheckpointStore {
  readonly folder: string;
  readonly workspace: string;
  /** Read at each checkpoint: a new storage limit applies from the next one (which prunes down to it). */
  settings: CheckpointSettings;
  /** The content-addressed objects (read-only use outside: diffs of a turn's changes). */
  readonly objects: ObjectStore;
  private readonly checkpoints: CheckpointList;
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
    checkpoints: CheckpointList,
  ) {
    this.folder = folder;
    this.workspace = workspace;
    this.settings = settings;
    this.objects = objects;
    this.checkpoints = checkpoints;
    this.nextSeq = (checkpoints.entries.at(-1)?.seq ?? 0) + 1;
    this.watch = new FolderWatch(workspace, path.join(folder, 'watch'));
    this.pending = new PendingRecords(folder, workspace, objects);
  }

  /** Opens (or creates) the store in `folder` for the workspace at `workspace`. */
  static async open(
    folder: string,
    workspace: string,
    settings: CheckpointSettings = DEFAULT_CHECKPOINT_SETTINGS,
  ): Promise<CheckpointStore> {
    const objects = await ObjectStore.open(path.join(folder, 'objects'));
    const checkpoints = await CheckpointList.open(folder, objects);
    const store = new CheckpointStore(folder, await realpath(workspace), settings, objects, checkpoints);
    await store.reopenPending();
    store.recoveryNotice = await finishInterruptedRewind(store.rewindContext());
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
    return this.checkpoints.entries;
  }

  get(id: string): Checkpoint | undefined {
    return this.checkpoints.get(id);
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
    return this.checkpoints.beforeCall(callId);
  }

  /** What rewinding to `id` would change, and which of those files the person changed, without changing anything. */
  preview(id: string, only?: ReadonlySet<string>): Promise<RewindPreview> {
    return this.serial(() => previewRewind(this.rewindContext(), this.require(id), only));
  }

  /**
   * Brings every file back to its state at checkpoint `id`, after a checkpoint of the present.
   * Files someone other than the agent changed since are restored only as `resolve` says; when it
   * leaves one of them out, nothing is changed and a RewindConflictError lists them. With `only`,
   * just those files go back (a revert from the Changes card); every other file stays as it is.
   */
  rewind(id: string, resolve?: ConflictResolution, only?: ReadonlySet<string>): Promise<RewindOutcome> {
    return this.serial(() => rewindTo(this.rewindContext(), this.require(id), resolve, only));
  }

  /** What a rewind uses of this store; it records directly (it runs in the queue, or at open before any other use). */
  private rewindContext(): RewindContext {
    return {
      objects: this.objects,
      workspace: this.workspace,
      folder: this.folder,
      checkpoints: this.checkpoints.entries,
      record: async (label, closes) => (await this.recordNow(label, undefined, closes)).checkpoint,
    };
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
    await this.pending.finishOn(scan.tree, (checkpoint) => this.checkpoints.keep(checkpoint));
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
    await this.checkpoints.keep(checkpoint);
    const pruned = await this.prune();
    this.unreported.push(...pruned);
    return {
      checkpoint,
      read: scan.read,
      listed: scan.listed,
      ...(pruned.length === 0 ? {} : { notice: this.prunedNotice(pruned), pruned }),
    };
  }

  /** Drops the oldest checkpoints until the store fits its limit (the newest always stays); returns them. */
  private prune(): Promise<Checkpoint[]> {
    return this.checkpoints.prune(this.objects, this.settings.maxStorageBytes);
  }

  /** The checkpoints pruned since the last call of this (the next card's completion names them). */
  takePruned(): Checkpoint[] {
    return this.unreported.splice(0);
  }

  /** "3 old checkpoints pruned to stay under 2048 MiB: …" (one per call or rewind; a record after one is not counted). */
  prunedNotice(pruned: readonly Checkpoint[]): string {
    return prunedNotice(pruned, this.settings.maxStorageBytes);
  }
}
