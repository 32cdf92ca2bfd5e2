import { lstatSync, type Stats } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { openFolder, type VerifiedFolder } from '../files/confined-fs.ts';
import { tempWriter } from '../files/temp-files.ts';
import { isIgnored, withLayer, type IgnoreLayer } from '../files/walk.ts';
import { parseJson, type Checkpoint } from './checkpoint-list.ts';
import { hashOf, type ObjectStore, type TreeEntry } from './object-store.ts';
import { readWholeFile, unreadable, unstorable } from './stored-file.ts';
import { SKIPPED_FOLDERS } from './workspace-scan.ts';

// Records of calls whose changes are known before they run (write_file and patch_file change the
// paths the gate resolved), taken while the workspace's first whole record in this process is not
// finished: such a call does not wait for a scan of every file. Before it runs, the files it may
// change are read and stored (their state: a file's bytes, a link's target, or absent) and a
// pending record naming them is written to `pending/`; after it ran, the same files again. Once
// the whole record is finished, each pending record becomes an ordinary one: that record's tree
// with every captured path set to its state at the pending record's time. A crash before that
// leaves the pending records on disk; the next open of the store records the workspace then and
// finishes them the same way, so the captured files are exact and the others as found at reopen.

/** One path's state as a capture saw it: its entry in its folder's listing, or absent. */
export interface Capture {
  /** Workspace-relative, `/`-separated. */
  path: string;
  entry: TreeEntry | null;
}

/** A record whose tree waits for the workspace's whole record. */
export interface PendingRecord {
  checkpoint: Omit<Checkpoint, 'tree' | 'files' | 'not_restorable'>;
  captures: Capture[];
  /** The workspace-relative paths the call touches (its record after captures them again). */
  touches: string[];
}

/** The workspace-relative form of `real`, or null when it is outside or names what a scan never records. */
export function touchedPath(workspace: string, real: string): string | null {
  const relative = path.relative(workspace, real).split(path.sep).join('/');
  if (relative === '' || relative === '..' || relative.startsWith('../') || path.isAbsolute(relative)) return null;
  const parts = relative.split('/');
  // A .gitignore changes what the whole record holds; .git is never read: both wait for it.
  if (parts.includes('.git') || parts.at(-1) === '.gitignore') return null;
  return relative;
}

/**
 * The states of `touches` now, each object stored (as a single file, on disk before this returns).
 * A path a scan would skip (ignored, in a dependency folder) is not captured; a path under a missing
 * folder is captured as its topmost missing folder, absent. Null when a path is a folder (the call
 * then waits for the whole record).
 */
export async function captureTouched(
  objects: ObjectStore,
  workspace: string,
  touches: readonly string[],
  maxFileBytes: number,
): Promise<Capture[] | null> {
  const captures: Capture[] = [];
  for (const relative of touches) {
    if (!(await recorded(workspace, relative))) continue;
    const capture = await captureOne(objects, workspace, relative, maxFileBytes);
    if (capture === 'folder') return null;
    if (capture) captures.push(capture);
  }
  return captures;
}

async function captureOne(
  objects: ObjectStore,
  workspace: string,
  relative: string,
  maxFileBytes: number,
): Promise<Capture | 'folder' | null> {
  const parts = relative.split('/');
  // The topmost part that does not exist: a write creates the folders below it with the file.
  for (let depth = 1; depth <= parts.length; depth += 1) {
    const at = parts.slice(0, depth).join('/');
    const info = lstatOrNull(path.join(workspace, at));
    if (info === 'not a folder') return null; // A file where a folder should be: the call cannot change anything.
    if (info === null) return { path: at, entry: null };
    if (depth < parts.length) {
      if (!info.isDirectory()) return null;
      continue;
    }
    const name = parts.at(-1) ?? relative;
    const absolute = path.join(workspace, relative);
    if (info.isDirectory()) return 'folder';
    if (info.isSymbolicLink())
      return { path: relative, entry: { name, kind: 'link', target: await readlink(absolute) } };
    if (!info.isFile()) return { path: relative, entry: null }; // Sockets and pipes are never recorded.
    const data = readWholeFile(absolute, relative);
    const mode = info.mode & 0o7777;
    const hash = hashOf(data);
    if (data.byteLength > maxFileBytes)
      return { path: relative, entry: { name, kind: 'large', hash, mode, size: data.byteLength } };
    await objects.putNow(data, hash).catch((error: unknown) => {
      throw unstorable(objects, relative, error);
    });
    return { path: relative, entry: { name, kind: 'file', hash, mode, size: data.byteLength } };
  }
  return null;
}

function lstatOrNull(absolute: string): Stats | null | 'not a folder' {
  try {
    return lstatSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') return 'not a folder';
    throw unreadable(path.basename(absolute), error);
  }
}

/** Whether a scan of the workspace records `relative`: no folder on its way skipped or ignored, nor itself. */
async function recorded(workspace: string, relative: string): Promise<boolean> {
  const parts = relative.split('/');
  let layers: IgnoreLayer[] = [];
  let folder = workspace;
  // A folder the call creates has no rules yet: the ones above still apply to what is below it.
  let exists = true;
  for (const [index, name] of parts.entries()) {
    const last = index === parts.length - 1;
    const opened: VerifiedFolder | null = exists ? await openFolder(folder, folder).catch(() => null) : null;
    exists = opened !== null;
    if (opened) {
      try {
        layers = await withLayer(layers, opened);
      } finally {
        await opened.close();
      }
    }
    const absolute = path.join(folder, name);
    if (!last && SKIPPED_FOLDERS.has(name)) return false;
    if (isIgnored(layers, absolute, !last)) return false;
    folder = absolute;
  }
  return true;
}

/** Where the pending records live. */
export function pendingFolder(storeFolder: string): string {
  return path.join(storeFolder, 'pending');
}

function pendingFile(storeFolder: string, checkpoint: { seq: number; id: string }): string {
  return path.join(pendingFolder(storeFolder), `${String(checkpoint.seq).padStart(6, '0')}-${checkpoint.id}.json`);
}

/** Writes a pending record (by rename: whole after a crash, or absent). */
export async function writePending(storeFolder: string, record: PendingRecord): Promise<void> {
  await mkdir(pendingFolder(storeFolder), { recursive: true, mode: 0o700 });
  const file = pendingFile(storeFolder, record.checkpoint);
  await writeFile(`${file}.tmp`, JSON.stringify(record), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

export async function removePending(storeFolder: string, checkpoint: { seq: number; id: string }): Promise<void> {
  await rm(pendingFile(storeFolder, checkpoint), { force: true });
}

const entrySchema = z.union([
  z.object({ name: z.string(), kind: z.enum(['file', 'large']), hash: z.string(), mode: z.number(), size: z.number() }),
  z.object({ name: z.string(), kind: z.literal('link'), target: z.string() }),
]);

const pendingSchema = z.object({
  checkpoint: z.object({
    id: z.string(),
    seq: z.number().int(),
    created_at: z.string(),
    label: z.string(),
    call_id: z.string().optional(),
    closes: z.string().optional(),
  }),
  captures: z.array(z.object({ path: z.string(), entry: entrySchema.nullable() })),
  touches: z.array(z.string()),
});

/** The pending records on disk, oldest first (a torn or foreign file is skipped). */
export async function readPending(storeFolder: string): Promise<PendingRecord[]> {
  const names = await readdir(pendingFolder(storeFolder)).catch(() => [] as string[]);
  const records: PendingRecord[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue;
    const text = await readFile(path.join(pendingFolder(storeFolder), name), 'utf8').catch(() => null);
    const parsed = text === null ? null : pendingSchema.safeParse(parseJson(text));
    if (parsed?.success) records.push(parsed.data as PendingRecord);
  }
  return records;
}

/**
 * The records `pending` (oldest first) become on top of a whole record's tree `base`. Each path
 * any of them captured starts as its first capture said (nothing changed it before that), the
 * earliest capture winning where one path holds another; then the captures up to the record's own
 * are applied in the order taken. Only the records from `from` on are made (those before were
 * finished already on the same tree).
 */
export async function finishPending(
  objects: ObjectStore,
  base: string,
  pending: readonly PendingRecord[],
  from = 0,
): Promise<Checkpoint[]> {
  const taken = pending.flatMap((record, index) => record.captures.map((capture) => ({ capture, index })));
  const firsts = new Map<string, Capture>();
  for (const { capture } of taken) if (!firsts.has(capture.path)) firsts.set(capture.path, capture);
  const before = new Map<string, TreeEntry | null>();
  for (const capture of [...firsts.values()].reverse()) applyCapture(before, capture);
  // The folders the calls wrote in: a whole record taken meanwhile may hold their temp files.
  const written = new Set(pending.flatMap((record) => record.touches.map((touched) => parentOf(touched))));
  const finished: Checkpoint[] = [];
  for (const [index, record] of pending.entries()) {
    if (index < from) continue;
    const states = new Map(before);
    for (const entry of taken) if (entry.index <= index) applyCapture(states, entry.capture);
    const tree = await overlayTree(objects, base, '', states, written);
    finished.push({ ...record.checkpoint, tree, ...(await treeTotals(objects, tree)) });
  }
  return finished;
}

/** Sets a path's state: what was known below it no longer holds (a file under an absent folder does). */
function applyCapture(states: Map<string, TreeEntry | null>, capture: Capture): void {
  for (const known of [...states.keys()]) if (known.startsWith(`${capture.path}/`)) states.delete(known);
  states.set(capture.path, capture.entry);
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}

/** `tree` (the folder at `folder`, null: none) with `states` (paths relative to the root) applied. */
async function overlayTree(
  objects: ObjectStore,
  tree: string | null,
  folder: string,
  states: ReadonlyMap<string, TreeEntry | null>,
  written: ReadonlySet<string>,
): Promise<string> {
  const byName = new Map((tree === null ? [] : await objects.readTree(tree)).map((entry) => [entry.name, entry]));
  if (written.has(folder)) for (const name of byName.keys()) if (tempWriter(name) !== null) byName.delete(name);
  const prefix = folder === '' ? '' : `${folder}/`;
  const below = new Set<string>();
  // This folder's own entries first: a folder captured absent, then a file captured under it, creates it again.
  for (const [at, entry] of states) {
    if (!at.startsWith(prefix)) continue;
    const rest = at.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) below.add(rest.slice(0, slash));
    else if (entry === null) byName.delete(rest);
    else byName.set(rest, entry);
  }
  for (const name of [...written].filter((at) => at.startsWith(prefix) && at !== folder))
    below.add(name.slice(prefix.length).split('/')[0] ?? name);
  for (const name of below) {
    const child = byName.get(name);
    const inside = `${prefix}${name}`;
    const wanted = [...states.keys()].some((at) => at.startsWith(`${inside}/`));
    // A folder only written in (its temp files dropped) that is not there is left absent.
    if (!wanted && child?.kind !== 'dir') continue;
    const hash = await overlayTree(objects, child?.kind === 'dir' ? child.hash : null, inside, states, written);
    byName.set(name, { name, kind: 'dir', hash });
  }
  const entries = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return objects.putTree(entries);
}

/** The files a tree holds and those recorded by hash only, as a scan counts them. */
async function treeTotals(objects: ObjectStore, tree: string): Promise<{ files: number; not_restorable: string[] }> {
  const totals = { files: 0, not_restorable: [] as string[] };
  const visit = async (hash: string, folder: string): Promise<void> => {
    for (const entry of await objects.readTree(hash)) {
      const at = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.kind === 'dir') await visit(entry.hash, at);
      else if (entry.kind === 'file') totals.files += 1;
      else if (entry.kind === 'large') {
        totals.files += 1;
        totals.not_restorable.push(at);
      }
    }
  };
  await visit(tree, '');
  return totals;
}
