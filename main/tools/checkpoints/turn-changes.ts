import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { structuredPatch, formatPatch, FILE_HEADERS_ONLY } from 'diff';
import type { ChangedFile, ChangedFileStatus } from '../../../protocol/changes.ts';
import type { Checkpoint, CheckpointStore } from './checkpoint-store.ts';
import { changedFiles } from './conflicts.ts';
import { hashOf, type ObjectStore, type TreeEntry } from './object-store.ts';
import { planRestore } from './restore.ts';

// What a turn changed in the workspace, from its checkpoints: the record before its first call that
// took one, and the record after its last one. Everything between the two is in the list, whoever
// wrote it (write_file, patch_file, a command), since the records are scans of the whole workspace.

export interface TurnSpan {
  before: Checkpoint;
  after: Checkpoint;
}

/** Text files bigger than this are listed with counts left at 0 and no diff. */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024;
/** Beyond this edit distance jsdiff gives up: the file is listed without a diff. */
export const MAX_EDIT_LENGTH = 20_000;

/**
 * The span of the calls `callIds` (one turn's, in order): the checkpoint before the first that took
 * one, and the record after the last that has one. Null when none of them took a checkpoint.
 */
export function turnSpan(store: CheckpointStore, callIds: readonly string[]): TurnSpan | null {
  const befores = callIds.map((id) => store.beforeCall(id)).filter((found) => found !== undefined);
  const before = befores[0];
  if (!before) return null;
  for (const last of [...befores].reverse()) {
    const after = store.list().find((entry) => entry.closes === last.id);
    if (after) return { before, after };
  }
  return null;
}

/** The files changed between each of these checkpoints and the record after it (a call's own changes), sorted. */
export async function callsChanges(store: CheckpointStore, checkpointIds: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const id of checkpointIds) {
    const before = store.get(id);
    const after = store.list().find((entry) => entry.closes === id);
    if (!before || !after) continue;
    for (const file of await changedFiles(store.objects, before.tree, after.tree)) files.add(file);
  }
  return [...files].sort();
}

/** The files that differ between the span's two records, sorted by path, each with counts and a diff. */
export async function spanChanges(store: CheckpointStore, span: TurnSpan): Promise<ChangedFile[]> {
  const objects = store.objects;
  const plan = await planRestore(objects, span.before.tree, span.after.tree);
  const olds = new Map<string, TreeEntry>();
  const news = new Map<string, TreeEntry>();
  for (const step of plan.removals) if (step.entry.kind !== 'dir') olds.set(step.path, step.entry);
  for (const step of plan.writes) if (step.entry.kind !== 'dir') news.set(step.path, step.entry);
  // A file written in place (same kind) is only in `writes`: its old entry is in the before tree.
  for (const file of news.keys())
    if (!olds.has(file)) {
      const entry = await entryAt(objects, span.before.tree, file);
      if (entry && entry.kind !== 'dir') olds.set(file, entry);
    }
  const paths = [...new Set([...olds.keys(), ...news.keys()])].sort((a, b) => a.localeCompare(b));
  const files: ChangedFile[] = [];
  for (const file of paths) {
    const was = olds.get(file) ?? null;
    const now = news.get(file) ?? null;
    files.push({ ...(await describe(objects, file, was, now)), now: await stateNow(store.workspace, file, was, now) });
  }
  return files;
}

/** Whether the file is now as the turn left it, as it was before the turn, or neither. */
async function stateNow(
  workspace: string,
  file: string,
  was: TreeEntry | null,
  now: TreeEntry | null,
): Promise<NonNullable<ChangedFile['now']>> {
  const plain = (entry: TreeEntry | null) => entry === null || entry.kind === 'file';
  if (!plain(was) || !plain(now)) return 'unknown';
  const absolute = path.join(workspace, file);
  const info = await lstat(absolute).catch(() => null);
  if (info !== null && !info.isFile()) return 'changed';
  const hash = info === null ? null : hashOf(await readFile(absolute));
  const hashOfEntry = (entry: TreeEntry | null) => (entry?.kind === 'file' ? entry.hash : null);
  if (hash === hashOfEntry(now)) return 'after';
  if (hash === hashOfEntry(was)) return 'before';
  return 'changed';
}

/** The entry at `file` (a `/`-separated path) in `tree`, or null. */
export async function entryAt(objects: ObjectStore, tree: string, file: string): Promise<TreeEntry | null> {
  let hash = tree;
  const parts = file.split('/');
  for (const [index, name] of parts.entries()) {
    const entry = (await objects.readTree(hash)).find((candidate) => candidate.name === name);
    if (!entry) return null;
    if (index === parts.length - 1) return entry;
    if (entry.kind !== 'dir') return null;
    hash = entry.hash;
  }
  return null;
}

async function describe(
  objects: ObjectStore,
  file: string,
  was: TreeEntry | null,
  now: TreeEntry | null,
): Promise<ChangedFile> {
  const status: ChangedFileStatus = was === null ? 'added' : now === null ? 'deleted' : 'modified';
  const base: ChangedFile = {
    path: file,
    status,
    added: 0,
    removed: 0,
    diff: '',
    note: null,
    not_restorable: was?.kind === 'large' || now?.kind === 'large',
  };
  if (base.not_restorable) return { ...base, note: 'over the size limit: recorded by hash only' };
  if (was?.kind === 'link' || now?.kind === 'link') {
    const target = (entry: TreeEntry | null) => (entry?.kind === 'link' ? `link to ${entry.target}` : 'file');
    return { ...base, note: `symbolic link (${target(was)} → ${target(now)})` };
  }
  const oldBytes = was?.kind === 'file' ? await objects.read(was.hash) : Buffer.alloc(0);
  const newBytes = now?.kind === 'file' ? await objects.read(now.hash) : Buffer.alloc(0);
  return describeBytes(base, oldBytes, newBytes);
}

/** A file's change from its bytes before and after (empty for added or deleted): counts and a unified diff, or why none. */
export function describeBytes(base: ChangedFile, oldBytes: Buffer, newBytes: Buffer): ChangedFile {
  const file = base.path;
  if (isBinary(oldBytes) || isBinary(newBytes)) return { ...base, note: 'binary file' };
  if (oldBytes.length > MAX_DIFF_BYTES || newBytes.length > MAX_DIFF_BYTES)
    return { ...base, note: 'too large to show a diff' };
  if (oldBytes.equals(newBytes)) return { ...base, note: 'mode changed' };
  const oldName = base.status === 'added' ? '/dev/null' : `a/${file}`;
  const newName = base.status === 'deleted' ? '/dev/null' : `b/${file}`;
  const patch = structuredPatch(oldName, newName, oldBytes.toString('utf8'), newBytes.toString('utf8'), '', '', {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return { ...base, note: 'too many changes to show a diff' };
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  const diff = formatPatch({ ...patch, oldHeader: undefined, newHeader: undefined }, FILE_HEADERS_ONLY);
  return { ...base, added, removed, diff };
}

/** A NUL byte in the first 8 000 bytes, as git decides. */
function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}
