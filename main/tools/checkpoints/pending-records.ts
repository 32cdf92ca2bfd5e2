import { randomBytes } from 'node:crypto';
import type { Checkpoint } from './checkpoint-store.ts';
import type { ObjectStore } from './object-store.ts';
import {
  captureTouched,
  finishPending,
  readPending,
  removePending,
  writePending,
  type PendingRecord,
} from './touched-records.ts';

// A store's records of calls whose changes are known (touched-records.ts) while they wait for the
// workspace's first whole record in this process: made in order, each ready once its files are
// stored, finished in order on that record's tree; and the calls still running, to which the whole
// record, taken in the background, gives way.

/** What names a record: its words, its call, the record it closes. */
export interface RecordNames {
  label: string;
  call_id?: string;
  closes?: string;
}

interface PendingEntry {
  id: string;
  callId?: string;
  ready: Promise<PendingRecord | null>;
}

export class PendingRecords {
  private readonly folder: string;
  private readonly workspace: string;
  private readonly objects: ObjectStore;
  /** Made and not yet taken by a whole record, oldest first. */
  private waiting: PendingEntry[] = [];
  /** Those and the ones being finished, by id. */
  private readonly unfinished = new Map<string, PendingEntry>();
  /** Calls recorded by their files that have not ended. */
  readonly running = new CallsRunning();
  /** Set once a whole record was taken in this process and finished them all: none is made after. */
  done = false;

  constructor(folder: string, workspace: string, objects: ObjectStore) {
    this.folder = folder;
    this.workspace = workspace;
    this.objects = objects;
  }

  /** Some record waits for a whole record. */
  get any(): boolean {
    return this.waiting.length > 0;
  }

  /** Record `id` is made and not finished yet. */
  has(id: string): boolean {
    return this.unfinished.has(id);
  }

  callOf(id: string): string | undefined {
    return this.unfinished.get(id)?.callId;
  }

  /**
   * Makes record number `seq` of `touches` (workspace-relative): it is in line at once (before any
   * await), and ready once its files are stored and it is on disk. Null when a path is a folder.
   */
  async make(names: RecordNames, seq: number, touches: string[], maxFileBytes: number): Promise<Checkpoint | null> {
    const checkpoint = {
      id: `cp-${randomBytes(6).toString('hex')}`,
      seq,
      created_at: new Date().toISOString(),
      ...names,
    };
    let failure: unknown = null;
    const ready = (async (): Promise<PendingRecord | null> => {
      const captures = await captureTouched(this.objects, this.workspace, touches, maxFileBytes);
      if (captures === null) return null;
      const record: PendingRecord = { checkpoint, captures, touches };
      await writePending(this.folder, record);
      return record;
    })().catch((error: unknown) => {
      failure = error;
      return null;
    });
    this.add({ id: checkpoint.id, ...(names.call_id === undefined ? {} : { callId: names.call_id }), ready });
    const record = await ready;
    if (failure !== null) throw failure;
    if (!record) return null;
    const large = record.captures.flatMap((capture) => (capture.entry?.kind === 'large' ? [capture.path] : []));
    return { ...checkpoint, tree: '', files: 0, not_restorable: large };
  }

  /** The record after call `before`, of the same files (null when `before` is not one of these, or no record waits any more). */
  async after(before: string, label: string, seq: () => number, maxFileBytes: number): Promise<Checkpoint | null> {
    const opened = this.unfinished.get(before);
    if (!opened || this.done) return null;
    const record = await opened.ready;
    // The whole record may have ended meanwhile: then the record after is a whole one too.
    if (!record || this.done) return null;
    const { call_id } = record.checkpoint;
    const names = { label, ...(call_id === undefined ? {} : { call_id }), closes: before };
    return this.make(names, seq(), record.touches, maxFileBytes);
  }

  /** The records a stop left on disk that the list does not hold; returns the highest sequence number seen. */
  async reopen(listed: (id: string) => boolean): Promise<number> {
    let highest = 0;
    for (const record of await readPending(this.folder)) {
      highest = Math.max(highest, record.checkpoint.seq);
      if (listed(record.checkpoint.id)) await removePending(this.folder, record.checkpoint);
      else this.add({ id: record.checkpoint.id, ready: Promise.resolve(record) });
    }
    return highest;
  }

  /**
   * Finishes every waiting record on the whole record's tree `base`, oldest first, handing each to
   * `keep` (which lists it); records made meanwhile are finished on the same tree (their files are
   * captured; any other change since is seen by the next whole record). On a failure the records
   * not kept wait again.
   */
  async finishOn(base: string, keep: (checkpoint: Checkpoint) => Promise<void>): Promise<void> {
    const finished: PendingRecord[] = [];
    while (this.waiting.length > 0) {
      const taken = this.waiting.splice(0);
      const records = (await Promise.all(taken.map((entry) => entry.ready))).filter((record) => record !== null);
      const kept = new Set<string>();
      try {
        for (const checkpoint of await finishPending(this.objects, base, [...finished, ...records], finished.length)) {
          await keep(checkpoint);
          kept.add(checkpoint.id);
        }
      } catch (error) {
        this.waiting.unshift(...taken.filter((entry) => !kept.has(entry.id)));
        throw error;
      }
      finished.push(...records);
      for (const entry of taken) this.unfinished.delete(entry.id);
      for (const record of records) await removePending(this.folder, record.checkpoint);
    }
  }

  private add(entry: PendingEntry): void {
    this.waiting.push(entry);
    this.unfinished.set(entry.id, entry);
  }
}

/** How long a whole record waits for one call recorded by its files (one that never says it ended: a Stop before it ran). */
const GIVE_WAY_MS = 5000;

/** Calls running that a whole record in the background gives way to. */
export class CallsRunning {
  private readonly ids = new Map<string, number>();
  private waiters: (() => void)[] = [];

  add(callId: string): void {
    this.ids.set(callId, Date.now());
  }

  end(callId: string): void {
    this.ids.delete(callId);
    if (this.ids.size > 0) return;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once none runs (a call running longer than GIVE_WAY_MS no longer counts). */
  async quiet(): Promise<void> {
    for (;;) {
      const now = Date.now();
      for (const [id, since] of this.ids) if (now - since >= GIVE_WAY_MS) this.ids.delete(id);
      if (this.ids.size === 0) return;
      const oldest = Math.min(...this.ids.values());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, oldest + GIVE_WAY_MS - now);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
