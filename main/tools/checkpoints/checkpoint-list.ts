import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { formatBytes } from '../../../protocol/format.ts';
import type { ObjectStore } from './object-store.ts';

// A store's checkpoints as records on disk: `list/NNNNNN-ID.json`, one small record per
// checkpoint, written by rename, so the list is whole after a crash. Held oldest first; the
// storage limit prunes from the oldest.

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

export class CheckpointList {
  /** Oldest first; shared with the conflict check, which reads it as it is. */
  readonly entries: Checkpoint[];
  private readonly folder: string;

  private constructor(folder: string, entries: Checkpoint[]) {
    this.folder = folder;
    this.entries = entries;
  }

  /** Reads the records in `<storeFolder>/list` whose tree `objects` holds (creating the folder). */
  static async open(storeFolder: string, objects: ObjectStore): Promise<CheckpointList> {
    const folder = path.join(storeFolder, 'list');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const entries: Checkpoint[] = [];
    for (const name of (await readdir(folder)).sort()) {
      if (!name.endsWith('.json')) continue;
      const text = await readFile(path.join(folder, name), 'utf8').catch(() => null);
      const record = text === null ? null : parseRecord(text);
      if (record && objects.has(record.tree)) entries.push(record);
    }
    return new CheckpointList(folder, entries);
  }

  get(id: string): Checkpoint | undefined {
    return this.entries.find((checkpoint) => checkpoint.id === id);
  }

  /** The checkpoint taken before call `callId` (not the record after it). */
  beforeCall(callId: string): Checkpoint | undefined {
    return this.entries.find((entry) => entry.call_id === callId && entry.closes === undefined);
  }

  /** Writes a record to the list (by rename: whole after a crash) and holds it. */
  async keep(checkpoint: Checkpoint): Promise<void> {
    const file = this.fileOf(checkpoint);
    await writeFile(`${file}.tmp`, JSON.stringify(checkpoint), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    this.entries.push(checkpoint);
  }

  /** Drops the oldest checkpoints until `objects` fits `maxStorageBytes` (the newest always stays); returns them. */
  async prune(objects: ObjectStore, maxStorageBytes: number): Promise<Checkpoint[]> {
    const pruned: Checkpoint[] = [];
    while (objects.totalBytes > maxStorageBytes && this.entries.length > 1) {
      const oldest = this.entries.shift();
      if (!oldest) break;
      await rm(this.fileOf(oldest), { force: true });
      pruned.push(oldest);
      await objects.sweep(await objects.reachable(this.entries.map((c) => c.tree)));
    }
    return pruned;
  }

  private fileOf(checkpoint: Checkpoint): string {
    return path.join(this.folder, `${String(checkpoint.seq).padStart(6, '0')}-${checkpoint.id}.json`);
  }
}

/** "3 old checkpoints pruned to stay under 2048 MiB: …" (one per call or rewind; a record after one is not counted). */
export function prunedNotice(pruned: readonly Checkpoint[], maxStorageBytes: number): string {
  const count = pruned.filter((entry) => entry.closes === undefined).length || pruned.length;
  const limit = maxStorageBytes;
  const shown = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : formatBytes(limit);
  return (
    `${count} old checkpoint${count === 1 ? '' : 's'} pruned to stay under ${shown}: ` +
    'the cards before them can no longer rewind the code. Raise the checkpoint storage limit in Settings to keep more.'
  );
}

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

/** JSON.parse, or null when `text` is not JSON (a torn file). */
export function parseJson(text: string): unknown {
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
