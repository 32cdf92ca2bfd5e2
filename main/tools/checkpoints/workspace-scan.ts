import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { openFolder, type VerifiedFolder } from '../files/confined-fs.ts';
import { isIgnored, withLayer, type IgnoreLayer } from '../files/walk.ts';
import { isUnder, type FolderChanges, type FolderWatch } from './folder-watch.ts';
import type { ObjectStore, TreeEntry } from './object-store.ts';
import { readAndStore, unreadable, unstorable } from './stored-file.ts';

// One pass over the workspace that turns it into trees and blobs. Incremental the way git's index
// is: a file whose inode, size, times and mode are those of the last scan keeps its hash without
// being read, so a checkpoint after a one-file change reads one file; and with a watch of the
// workspace's folders (folder-watch.ts), a folder nothing changed in keeps its whole subtree from
// the last scan without a single stat. Folders are opened and
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

/** What a scan learnt of one folder, for the next scan. */
export interface FolderRecord {
  tree: string;
  /** Files in this folder and below. */
  files: number;
  /** Files recorded by hash only, in this folder and below (relative paths). */
  notRestorable: string[];
  /** This folder's own files, by name. */
  signatures: Map<string, StatSignature>;
  /** Its subfolders' relative paths. */
  subfolders: string[];
  /** A file here or below changed too recently to trust its times: looked at again next time. */
  racy: boolean;
}

/** A scan's records by folder (relative path, '' the root). */
export type ScanState = ReadonlyMap<string, FolderRecord>;

/** More changed folders than this and the scan looks at every folder (cheaper than checking each against them). */
const MAX_CHANGES = 1000;

export interface ScanContext {
  workspace: string;
  store: ObjectStore;
  /** Files over this many bytes are recorded by hash only. */
  maxFileBytes: number;
  /** The last scan's records; read, never changed. */
  previous: ScanState;
  /** What changed since `previous` was taken; null or absent: unknown, every file is stat'ed. */
  changes?: FolderChanges | null;
  /** Told of every folder before it is listed, so changes after that are seen next time. */
  watch?: FolderWatch;
  /** Awaited before each folder and before the new objects are written: a scan in the background gives way. */
  giveWay?: () => Promise<void>;
}

export interface ScanResult {
  tree: string;
  files: number;
  /** Files whose bytes were read this time (new or changed since the last scan). */
  read: number;
  /** Folders listed this time (the others kept their record from the last scan). */
  listed: number;
  /** Relative paths of files recorded by hash only. */
  notRestorable: string[];
  folders: Map<string, FolderRecord>;
}

export { CheckpointScanError } from './stored-file.ts';

export async function scanWorkspace(context: ScanContext): Promise<ScanResult> {
  const result: ScanResult = { tree: '', files: 0, read: 0, listed: 0, notRestorable: [], folders: new Map() };
  const changes = context.changes ?? null;
  const known = changes !== null && changes.listed.size + changes.subtrees.size <= MAX_CHANGES ? changes : null;
  const scan: Scan = { context, result, changes: known, startedAt: Date.now(), slots: new Slots(FOLDERS_AT_ONCE) };
  // New small objects are gathered and written as one pack at the end (object-store.ts).
  context.store.beginBatch();
  let root: FolderRecord;
  try {
    root = await scanFolder(scan, context.workspace, '', []);
    await context.giveWay?.();
    await context.store.endBatch().catch((error: unknown) => {
      throw unstorable(context.store, 'the new and changed files', error);
    });
  } catch (error) {
    context.store.abortBatch();
    throw error;
  }
  result.tree = root.tree;
  result.files = root.files;
  result.notRestorable = root.notRestorable;
  return result;
}

/** The last scan's record of `relative` when nothing in its subtree changed since, else null. */
function unchanged(scan: Scan, relative: string): FolderRecord | null {
  const { changes } = scan;
  const before = scan.context.previous.get(relative);
  if (changes === null || !before || before.racy) return null;
  for (const listed of changes.listed) if (isUnder(listed, relative)) return null;
  for (const subtree of changes.subtrees) if (isUnder(subtree, relative) || isUnder(relative, subtree)) return null;
  return before;
}

/** Carries the records of `relative` and every folder below it over from the last scan. */
function carryOver(scan: Scan, relative: string, record: FolderRecord): void {
  scan.result.folders.set(relative, record);
  for (const sub of record.subfolders) {
    const below = scan.context.previous.get(sub);
    if (below) carryOver(scan, sub, below);
  }
}

/** Folders listed at the same time: waits on the disk overlap, while open descriptors stay few. */
const FOLDERS_AT_ONCE = 8;

interface Scan {
  context: ScanContext;
  result: ScanResult;
  changes: FolderChanges | null;
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

async function scanFolder(
  scan: Scan,
  absolute: string,
  relative: string,
  inherited: IgnoreLayer[],
): Promise<FolderRecord> {
  const same = unchanged(scan, relative);
  if (same) {
    carryOver(scan, relative, same);
    return same;
  }
  const entries: (TreeEntry | null)[] = [];
  const subfolders: { index: number; name: string; layers: IgnoreLayer[] }[] = [];
  const own: Own = {
    signatures: new Map(),
    previous: scan.context.previous.get(relative)?.signatures,
    files: 0,
    notRestorable: [],
    racy: false,
  };
  scan.result.listed += 1;
  await scan.context.giveWay?.();
  await scan.slots.acquire();
  try {
    // Watched before it is listed: a change made after the listing is seen by the next scan.
    scan.context.watch?.watch(relative);
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
          entries[index] = await scanFile(scan, own, folder, entry.name, childRelative, info);
        }
      }
    } finally {
      await folder.close();
    }
  } finally {
    // Released before the subfolders are scanned: a parent never holds a slot its children wait for.
    scan.slots.release();
  }
  const children = await Promise.all(
    subfolders.map(async ({ index, name, layers }) => {
      const childRelative = relative ? `${relative}/${name}` : name;
      const child = await scanFolder(scan, path.join(absolute, name), childRelative, layers);
      entries[index] = { name, kind: 'dir', hash: child.tree };
      return { relative: childRelative, child };
    }),
  );
  const record: FolderRecord = {
    tree: await scan.context.store.putTree(entries.filter((entry) => entry !== null)),
    files: own.files + children.reduce((sum, { child }) => sum + child.files, 0),
    notRestorable: [...own.notRestorable, ...children.flatMap(({ child }) => child.notRestorable)],
    signatures: own.signatures,
    subfolders: children.map((child) => child.relative),
    racy: own.racy || children.some(({ child }) => child.racy),
  };
  scan.result.folders.set(relative, record);
  return record;
}

/** What the scan of one folder gathers of its own files. */
interface Own {
  signatures: Map<string, StatSignature>;
  previous: ReadonlyMap<string, StatSignature> | undefined;
  files: number;
  notRestorable: string[];
  racy: boolean;
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
  own: Own,
  folder: VerifiedFolder,
  name: string,
  relative: string,
  info: Stats,
): Promise<TreeEntry> {
  const mode = info.mode & 0o7777;
  const { context, result, startedAt } = scan;
  const large = info.size > context.maxFileBytes;
  const before = own.previous?.get(name);
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
    hash = await readAndStore(context.store, folder, name, relative, large ? 'hash only' : info.size, context.giveWay);
    result.read += 1;
  }
  own.files += 1;
  if (large) own.notRestorable.push(relative);
  // A file changed in the same tick as the scan could change again unseen: it is not trusted.
  if (info.mtimeMs >= startedAt - RACY_MS) own.racy = true;
  else
    own.signatures.set(name, {
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
