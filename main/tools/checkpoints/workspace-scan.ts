import { constants, lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { open, readlink, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { openFolder, type VerifiedFolder } from '../files/confined-fs.ts';
import { isIgnored, withLayer, type IgnoreLayer } from '../files/walk.ts';
import { hashOf, type ObjectStore, type TreeEntry } from './object-store.ts';

// One pass over the workspace that turns it into trees and blobs. Incremental the way git's index
// is: a file whose inode, size, times and mode are those of the last scan keeps its hash without
// being read, so a checkpoint after a one-file change reads one file. Folders are opened and
// verified (confined-fs.ts) and entries named through them; links are recorded, never followed.
// `.git` (a folder, or a submodule's file) is never read, so a nested repository's files are
// captured while its history is not; `.gitignore` files are honoured as git reads them.

/** Folders of downloaded or generated files, skipped even where no `.gitignore` names them. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  '__pycache__',
  '.venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.next',
  '.nuxt',
]);

/** Files changed within this long before a scan are read again next time (times are coarse). */
const RACY_MS = 1000;

export interface StatSignature {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  mode: number;
  hash: string;
  large: boolean;
}

export interface ScanContext {
  workspace: string;
  store: ObjectStore;
  /** Files over this many bytes are recorded by hash only. */
  maxFileBytes: number;
  /** The last scan's signatures by relative path; read, never changed. */
  previous: ReadonlyMap<string, StatSignature>;
}

export interface ScanResult {
  tree: string;
  files: number;
  /** Files whose bytes were read this time (new or changed since the last scan). */
  read: number;
  /** Relative paths of files recorded by hash only. */
  notRestorable: string[];
  signatures: Map<string, StatSignature>;
}

export class CheckpointScanError extends Error {
  override name = 'CheckpointScanError';
}

export async function scanWorkspace(context: ScanContext): Promise<ScanResult> {
  const result: ScanResult = { tree: '', files: 0, read: 0, notRestorable: [], signatures: new Map() };
  const scan: Scan = { context, result, startedAt: Date.now(), slots: new Slots(FOLDERS_AT_ONCE) };
  result.tree = await scanFolder(scan, context.workspace, '', []);
  return result;
}

/** Folders listed at the same time: waits on the disk overlap, while open descriptors stay few. */
const FOLDERS_AT_ONCE = 8;

interface Scan {
  context: ScanContext;
  result: ScanResult;
  startedAt: number;
  slots: Slots;
}

/** A counting semaphore: at most `size` holders at once, the rest wait in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next waiter, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

async function scanFolder(scan: Scan, absolute: string, relative: string, inherited: IgnoreLayer[]): Promise<string> {
  const entries: (TreeEntry | null)[] = [];
  const subfolders: { index: number; name: string; layers: IgnoreLayer[] }[] = [];
  await scan.slots.acquire();
  try {
    const folder = await openFolder(absolute, relative || '.').catch((error: unknown) => {
      throw unreadable(relative || '.', error);
    });
    try {
      // Listing and stats are synchronous on purpose: tens of thousands of tiny calls through the
      // thread pool cost far more in hand-offs than the calls themselves (bench/checkpoints.ts).
      const dirents = readdirSync(folder.self(), { withFileTypes: true });
      const hasRules = dirents.some((entry) => entry.name === '.gitignore' && entry.isFile());
      const layers = hasRules ? await withLayer(inherited, folder) : inherited;
      const kept = dirents.filter((entry) => keep(entry, layers, path.join(absolute, entry.name)));
      kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const stats = kept.map((entry) =>
        entry.isFile() ? (lstatSync(folder.entry(entry.name), { throwIfNoEntry: false }) ?? null) : null,
      );
      for (const [index, entry] of kept.entries()) {
        entries.push(null);
        if (entry.isDirectory()) subfolders.push({ index, name: entry.name, layers });
        else if (entry.isSymbolicLink()) {
          const target = await readlink(folder.entry(entry.name)).catch(() => null);
          if (target !== null) entries[index] = { name: entry.name, kind: 'link', target };
        } else {
          const info = stats[index];
          if (!info) continue; // Gone between the listing and the stat.
          const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
          entries[index] = await scanFile(scan, folder, entry.name, childRelative, info);
        }
      }
    } finally {
      await folder.close();
    }
  } finally {
    // Released before the subfolders are scanned: a parent never holds a slot its children wait for.
    scan.slots.release();
  }
  await Promise.all(
    subfolders.map(async ({ index, name, layers }) => {
      const childRelative = relative ? `${relative}/${name}` : name;
      const hash = await scanFolder(scan, path.join(absolute, name), childRelative, layers);
      entries[index] = { name, kind: 'dir', hash };
    }),
  );
  return scan.context.store.putTree(entries.filter((entry) => entry !== null));
}

function keep(entry: Dirent, layers: readonly IgnoreLayer[], absolute: string): boolean {
  if (entry.name === '.git') return false;
  const isDir = entry.isDirectory();
  if (!isDir && !entry.isFile() && !entry.isSymbolicLink()) return false; // Sockets, pipes, devices.
  if (isDir && SKIPPED_FOLDERS.has(entry.name)) return false;
  return !isIgnored(layers, absolute, isDir);
}

async function scanFile(
  scan: Scan,
  folder: VerifiedFolder,
  name: string,
  relative: string,
  info: Stats,
): Promise<TreeEntry> {
  const mode = info.mode & 0o7777;
  const { context, result, startedAt } = scan;
  const large = info.size > context.maxFileBytes;
  const before = context.previous.get(relative);
  let hash: string;
  if (
    before &&
    before.ino === info.ino &&
    before.size === info.size &&
    before.mtimeMs === info.mtimeMs &&
    before.ctimeMs === info.ctimeMs &&
    before.large === large
  ) {
    hash = before.hash;
  } else {
    hash = await readAndStore(context, folder, name, relative, large);
    result.read += 1;
  }
  result.files += 1;
  if (large) result.notRestorable.push(relative);
  // A file changed in the same tick as the scan could change again unseen: it is not trusted.
  if (info.mtimeMs < startedAt - RACY_MS)
    result.signatures.set(relative, {
      ino: info.ino,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      mode,
      hash,
      large,
    });
  return { name, kind: large ? 'large' : 'file', hash, mode, size: info.size };
}

async function readAndStore(
  context: ScanContext,
  folder: VerifiedFolder,
  name: string,
  relative: string,
  large: boolean,
): Promise<string> {
  let data: Buffer;
  try {
    // O_NOFOLLOW: a file swapped for a link after the listing is refused, never followed.
    const handle = await open(folder.entry(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (large) return await hashStream(handle);
      data = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(relative, error);
  }
  return context.store.put(data, hashOf(data)).catch((error: unknown) => {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CheckpointScanError(
      `The checkpoint could not be made: ${relative} could not be stored in ${context.store.folder} (${reason}). ` +
        'Free some disk space (or lower the checkpoint storage limit in Settings), or turn checkpoints off.',
    );
  });
}

async function hashStream(handle: FileHandle): Promise<string> {
  const digest = createHash('sha256');
  for await (const chunk of handle.createReadStream({ autoClose: false })) digest.update(chunk as Buffer);
  return digest.digest('hex');
}

function unreadable(relative: string, error: unknown): CheckpointScanError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CheckpointScanError(
    `The checkpoint could not be made: ${relative} could not be read (${reason}). ` +
      'Make it readable, add it to .gitignore, or turn checkpoints off in Settings.',
  );
}
