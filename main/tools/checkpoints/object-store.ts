import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Content-addressed objects under the checkpoint folder: `objects/ab/cdef…`, named by the SHA-256
// of their bytes, written once (temp file + rename, so a crash never leaves half an object under
// its name) and never changed. A file's bytes are a blob; a folder's listing is a tree, itself an
// object, so an unchanged folder costs nothing in a new checkpoint. The store keeps the total
// size of its objects so a storage limit can be enforced without walking the folder each time.

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

  private constructor(folder: string) {
    this.folder = folder;
  }

  static async open(folder: string): Promise<ObjectStore> {
    const store = new ObjectStore(folder);
    await mkdir(folder, { recursive: true, mode: 0o700 });
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

  /** Stores `data` under its hash (once) and returns the hash. */
  async put(data: Uint8Array | string, knownHash?: string): Promise<string> {
    const hash = knownHash ?? hashOf(data);
    if (this.present.has(hash)) return hash;
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
    this.totalBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    return hash;
  }

  async read(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash)).catch((error: NodeJS.ErrnoException) => {
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
    let freed = 0;
    for (const hash of [...this.present]) {
      if (keep.has(hash)) continue;
      const file = this.pathOf(hash);
      const size = (await stat(file).catch(() => null))?.size ?? 0;
      await unlink(file).catch(() => undefined);
      this.present.delete(hash);
      this.totalBytes -= size;
      freed += size;
    }
    return freed;
  }
}
