import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readPacked, readPackIndex, writePack, type PackedAt } from './object-packs.ts';

// Content-addressed objects under the checkpoint folder: `objects/ab/cdef…`, named by the SHA-256
// of their bytes, written once (temp file + rename, so a crash never leaves half an object under
// its name) and never changed. A file's bytes are a blob; a folder's listing is a tree, itself an
// object, so an unchanged folder costs nothing in a new checkpoint. The store keeps the total
// size of its objects so a storage limit can be enforced without walking the folder each time.
// During a scan (a batch) small new objects are gathered and written together as packs
// (`objects/packs/`, object-packs.ts); large ones are single files as above.

/** Objects up to this size go in packs during a batch. */
const PACKED_MAX = 256 * 1024;
/** A batch writes a pack each time this much is gathered (and the rest at its end). */
const PACK_BYTES = 32 * 1024 * 1024;

/** One entry of a folder's listing in a checkpoint. */
export type TreeEntry =
  | { name: string; kind: 'file'; hash: string; mode: number; size: number }
  /** A file over the size limit: its hash and size only; a rewind cannot bring its bytes back. */
  | { name: string; kind: 'large'; hash: string; mode: number; size: number }
  /** A symbolic link, recorded as its target text; never followed. */
  | { name: string; kind: 'link'; target: string }
  | { name: string; kind: 'dir'; hash: string };

export function hashOf(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export class ObjectStore {
  readonly folder: string;
  /** Bytes of every object on disk. */
  totalBytes = 0;
  /** Objects known to be on disk: a second write of the same bytes costs no system call. */
  private readonly present = new Set<string>();
  /** The `ab/` folders known to exist. */
  private readonly prefixes = new Set<string>();
  /** Objects held in packs. */
  private readonly packed = new Map<string, PackedAt>();
  /** Bytes of each pack file. */
  private readonly packBytes = new Map<string, number>();
  /** During a batch: the new small objects not yet written to a pack. */
  private pending: Map<string, Buffer> | null = null;
  private pendingBytes = 0;

  private constructor(folder: string) {
    this.folder = folder;
  }

  static async open(folder: string): Promise<ObjectStore> {
    const store = new ObjectStore(folder);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await mkdir(store.packFolder, { recursive: true, mode: 0o700 });
    for (const name of await readdir(store.packFolder)) {
      const file = path.join(store.packFolder, name);
      const pack = name.endsWith('.pack') ? await readPackIndex(file) : null;
      if (!pack) {
        // A pack a crash interrupted (never renamed), or not a pack: nothing refers to it.
        await rm(file, { force: true });
        continue;
      }
      store.addPack(file, pack.bytes, pack.objects);
    }
    for (const prefix of await readdir(folder)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      store.prefixes.add(prefix);
      for (const rest of await readdir(path.join(folder, prefix))) {
        if (rest.includes('.tmp-')) {
          // A write a crash interrupted: never named, so never referenced.
          await rm(path.join(folder, prefix, rest), { force: true });
          continue;
        }
        const info = await stat(path.join(folder, prefix, rest));
        store.present.add(prefix + rest);
        store.totalBytes += info.size;
      }
    }
    return store;
  }

  pathOf(hash: string): string {
    return path.join(this.folder, hash.slice(0, 2), hash.slice(2));
  }

  has(hash: string): boolean {
    return this.present.has(hash);
  }

  private get packFolder(): string {
    return path.join(this.folder, 'packs');
  }

  private addPack(file: string, bytes: number, objects: ReadonlyMap<string, PackedAt>): void {
    for (const [hash, at] of objects) {
      this.packed.set(hash, at);
      this.present.add(hash);
    }
    this.packBytes.set(file, bytes);
    this.totalBytes += bytes;
  }

  /** From now until `endBatch`, small new objects are gathered and written as packs. */
  beginBatch(): void {
    this.pending ??= new Map();
  }

  /** Writes what the batch gathered (one pack, flushed to disk) and ends it. */
  async endBatch(): Promise<void> {
    await this.flush();
    this.pending = null;
  }

  /** Ends a batch whose scan failed: the objects it gathered are dropped (nothing refers to them). */
  abortBatch(): void {
    for (const [hash, data] of this.pending ?? []) {
      this.present.delete(hash);
      this.totalBytes -= data.byteLength;
    }
    this.pending = null;
    this.pendingBytes = 0;
  }

  /**
   * Stores a small object during a batch without a system call; returns null outside a batch or
   * for a large object (then `put` it). Call `settle` after: it writes a pack once enough is gathered.
   */
  gather(data: Uint8Array, knownHash?: string): string | null {
    if (!this.pending || data.byteLength > PACKED_MAX) return null;
    const hash = knownHash ?? hashOf(data);
    if (this.present.has(hash)) return hash;
    this.pending.set(hash, Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    this.present.add(hash);
    this.pendingBytes += data.byteLength;
    // Counted now, as the pack will be; its index and trailer are added when it is written.
    this.totalBytes += data.byteLength;
    return hash;
  }

  /** Writes the gathered objects to a pack once there are enough of them. */
  async settle(): Promise<void> {
    if (this.pendingBytes >= PACK_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    const pending = this.pending;
    if (!pending || pending.size === 0) return;
    await mkdir(this.packFolder, { recursive: true, mode: 0o700 });
    const pack = await writePack(this.packFolder, pending);
    this.totalBytes -= this.pendingBytes;
    this.addPack(pack.file, pack.bytes, pack.objects);
    this.pending = new Map();
    this.pendingBytes = 0;
  }

  /** Stores `data` under its hash (once) and returns the hash. */
  async put(data: Uint8Array | string, knownHash?: string): Promise<string> {
    const hash = knownHash ?? hashOf(data);
    if (this.present.has(hash)) return hash;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.gather(bytes, hash) !== null) return this.settle().then(() => hash);
    await this.writeSingle(hash, bytes);
    return hash;
  }

  /**
   * Stores `data` as a single file now, even during a batch (whose pack is written only at its
   * end): what must be on disk before a call runs. An object the batch gathered moves out of it.
   */
  async putNow(data: Buffer, knownHash?: string): Promise<string> {
    const hash = knownHash ?? hashOf(data);
    const gathered = this.pending?.get(hash);
    if (gathered) {
      this.pending?.delete(hash);
      this.pendingBytes -= gathered.byteLength;
      this.totalBytes -= gathered.byteLength;
      this.present.delete(hash);
    }
    if (this.present.has(hash)) return hash;
    await this.writeSingle(hash, data).catch((error: unknown) => {
      // The batch's pack still holds it then: the scan's trees that name it stay whole.
      if (gathered) this.gather(gathered, hash);
      throw error;
    });
    return hash;
  }

  private async writeSingle(hash: string, data: Uint8Array): Promise<void> {
    const target = this.pathOf(hash);
    const prefix = hash.slice(0, 2);
    if (!this.prefixes.has(prefix)) {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      this.prefixes.add(prefix);
    }
    const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      await writeFile(temp, data, { mode: 0o600 });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.present.add(hash);
    this.totalBytes += data.byteLength;
  }

  async read(hash: string): Promise<Buffer> {
    const gathered = this.pending?.get(hash);
    if (gathered) return gathered;
    const at = this.packed.get(hash);
    return (at ? readPacked(at) : readFile(this.pathOf(hash))).catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        `Checkpoint object ${hash.slice(0, 12)} is missing from ${this.folder} (${error.code ?? error.message}). ` +
          'The checkpoint store was changed from outside; this checkpoint cannot be restored.',
      );
    });
  }

  async putTree(entries: readonly TreeEntry[]): Promise<string> {
    return this.put(JSON.stringify(entries));
  }

  async readTree(hash: string): Promise<TreeEntry[]> {
    return JSON.parse((await this.read(hash)).toString('utf8')) as TreeEntry[];
  }

  /** Every object reachable from `roots` (trees, and the blobs they name). */
  async reachable(roots: readonly string[]): Promise<Set<string>> {
    const seen = new Set<string>();
    const visit = async (tree: string): Promise<void> => {
      if (seen.has(tree)) return;
      seen.add(tree);
      for (const entry of await this.readTree(tree)) {
        if (entry.kind === 'dir') await visit(entry.hash);
        else if (entry.kind === 'file') seen.add(entry.hash);
      }
    };
    for (const root of roots) await visit(root);
    return seen;
  }

  /** Removes every object not in `keep`; returns the bytes freed. */
  async sweep(keep: ReadonlySet<string>): Promise<number> {
    const before = this.totalBytes;
    for (const hash of [...this.present]) {
      if (keep.has(hash) || this.packed.has(hash) || this.pending?.has(hash)) continue;
      const file = this.pathOf(hash);
      const size = (await stat(file).catch(() => null))?.size ?? 0;
      await unlink(file).catch(() => undefined);
      this.present.delete(hash);
      this.totalBytes -= size;
    }
    // A pack holding objects no longer needed is written again with the others, or deleted.
    const packs = new Map<string, string[]>();
    for (const [hash, at] of this.packed) packs.set(at.file, [...(packs.get(at.file) ?? []), hash]);
    for (const [file, hashes] of packs) {
      if (hashes.every((hash) => keep.has(hash))) continue;
      const kept = new Map<string, Buffer>();
      for (const hash of hashes) {
        const at = this.packed.get(hash);
        if (at && keep.has(hash)) kept.set(hash, await readPacked(at));
      }
      if (kept.size > 0) {
        const pack = await writePack(this.packFolder, kept);
        this.addPack(pack.file, pack.bytes, pack.objects);
      }
      for (const hash of hashes) {
        if (keep.has(hash)) continue;
        this.packed.delete(hash);
        this.present.delete(hash);
      }
      await unlink(file).catch(() => undefined);
      this.totalBytes -= this.packBytes.get(file) ?? 0;
      this.packBytes.delete(file);
    }
    return before - this.totalBytes;
  }
}
