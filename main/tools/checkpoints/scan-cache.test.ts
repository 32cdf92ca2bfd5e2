import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.ts';
import { ObjectStore } from './object-store.ts';
import { scanWorkspace } from './workspace-scan.ts';

// What makes a checkpoint cheap, on real temp folders: the stat cache (a file whose inode, size
// and times are unchanged is not read again, except one changed within the timestamps' grain of
// the scan), the watch of the workspace's folders (an unchanged folder is not even listed), and
// the packs new objects are written to. The oracle for every incremental checkpoint: the tree of
// a fresh store, which reads everything, is the same hash.

let root: string;
let workspace: string;
const stores: CheckpointStore[] = [];

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-scan-cache-'));
  workspace = path.join(root, 'ws');
  for (let folder = 0; folder < 6; folder += 1) {
    const dir = path.join(workspace, `pkg${folder % 2}`, `dir${folder}`);
    await mkdir(dir, { recursive: true });
    for (let file = 0; file < 5; file += 1) await writeFile(path.join(dir, `f${file}.txt`), `file ${folder}/${file}\n`);
  }
  await writeFile(path.join(workspace, '.gitignore'), 'secret/\n');
  await mkdir(path.join(workspace, 'secret'));
  await writeFile(path.join(workspace, 'secret', 'key.txt'), 'ignored for now\n');
  const past = new Date(Date.now() - 3600_000);
  for (const entry of await readdir(workspace, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) await utimes(path.join(entry.parentPath, entry.name), past, past);
});

afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  await rm(root, { recursive: true, force: true });
});

async function open(name: string): Promise<CheckpointStore> {
  const store = await CheckpointStore.open(path.join(root, name), workspace);
  stores.push(store);
  return store;
}

/** The tree a store with no past takes of the workspace now. */
async function freshTree(): Promise<string> {
  const store = await open(`fresh-${stores.length}`);
  return (await store.record('fresh')).checkpoint.tree;
}

it('re-reads a same-size edit made within the timestamps’ grain of the last scan, and nothing else', async () => {
  const objects = await ObjectStore.open(path.join(root, 'objects'));
  const recent = path.join(workspace, 'pkg0', 'dir0', 'f0.txt');
  await writeFile(recent, 'AAAA\n');
  const { mtime } = await stat(recent);
  const first = await scanWorkspace({ workspace, store: objects, maxFileBytes: 1 << 20, previous: new Map() });
  expect(first.read).toBe(31);
  // Changed within a second of the scan: its times may not tell a later edit, so it is read again.
  const again = await scanWorkspace({ workspace, store: objects, maxFileBytes: 1 << 20, previous: first.folders });
  expect(again.read).toBe(1);
  expect(again.tree).toBe(first.tree);

  // Same size, and the same modification time as the scan saw.
  await writeFile(recent, 'BBBB\n');
  await utimes(recent, mtime, mtime);
  const second = await scanWorkspace({ workspace, store: objects, maxFileBytes: 1 << 20, previous: again.folders });
  expect(second.tree).not.toBe(first.tree);
  expect(second.tree).toBe(await freshTree());
});

it('reads no file and lists no folder when the watch saw no change', async () => {
  const store = await open('store');
  const first = await store.record('first');
  expect(first.read).toBe(31);
  const second = await store.record('second');
  expect(second.read).toBe(0);
  expect(second.listed).toBe(0);
  expect(second.checkpoint.tree).toBe(first.checkpoint.tree);
});

it('lists only the changed folder and those above it, and records the same tree as a full scan', async () => {
  const store = await open('store');
  await store.record('first');
  await writeFile(path.join(workspace, 'pkg1', 'dir3', 'f2.txt'), 'edited\n');
  const second = await store.record('second');
  expect(second.read).toBe(1);
  expect(second.listed).toBe(3); // The root, pkg1 and pkg1/dir3.
  expect(second.checkpoint.tree).toBe(await freshTree());
});

it('sees a folder created, filled and renamed, and a file a .gitignore change brings in', async () => {
  const store = await open('store');
  const first = await store.record('first');
  await mkdir(path.join(workspace, 'pkg0', 'made', 'deep'), { recursive: true });
  await writeFile(path.join(workspace, 'pkg0', 'made', 'deep', 'new.txt'), 'new\n');
  await rename(path.join(workspace, 'pkg0', 'made'), path.join(workspace, 'pkg1', 'moved'));
  await rename(path.join(workspace, 'pkg0', 'dir2'), path.join(workspace, 'pkg0', 'dir2b'));
  await writeFile(path.join(workspace, '.gitignore'), '*.log\n');
  const second = await store.record('second');
  expect(second.checkpoint.files).toBe(first.checkpoint.files + 2);
  expect(second.checkpoint.tree).toBe(await freshTree());

  await rm(path.join(workspace, 'pkg1', 'moved'), { recursive: true });
  await writeFile(path.join(workspace, 'pkg1', 'moved'), 'a file where the folder was\n');
  const third = await store.record('third');
  expect(third.checkpoint.tree).toBe(await freshTree());
  await store.rewind(second.checkpoint.id, 'take');
  expect(await readFile(path.join(workspace, 'pkg1', 'moved', 'deep', 'new.txt'), 'utf8')).toBe('new\n');
});

it('writes the small new objects of a checkpoint as one pack, readable after reopening; a torn pack is dropped', async () => {
  const folder = path.join(root, 'store');
  const store = await open('store');
  const { checkpoint } = await store.record('first');
  const packs = await readdir(path.join(folder, 'objects', 'packs'));
  expect(packs).toHaveLength(1);
  expect((await readdir(path.join(folder, 'objects'))).filter((name) => name !== 'packs')).toEqual([]);

  await writeFile(path.join(folder, 'objects', 'packs', 'torn.pack'), 'half a pack');
  await writeFile(path.join(workspace, 'pkg0', 'dir0', 'f0.txt'), 'changed\n');
  const reopened = await open('store');
  expect(await readdir(path.join(folder, 'objects', 'packs'))).toEqual(packs);
  await reopened.rewind(checkpoint.id, 'take');
  expect(await readFile(path.join(workspace, 'pkg0', 'dir0', 'f0.txt'), 'utf8')).toBe('file 0/0\n');
});
