import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountSmallFilesystem } from '../../../test/small-filesystem.ts';
import { CheckpointStore } from './checkpoint-store.ts';

// Checkpoints and rewind on real temp folders: a workspace that is a git repository holding a
// nested repository, a binary file, an executable, links (one pointing out of the workspace),
// ignored and build folders. Every assertion compares exact bytes, modes and link targets.

let root: string;
let workspace: string;
let storeFolder: string;

const git = (cwd: string, ...args: string[]): void => {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
};

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-checkpoints-'));
  workspace = path.join(root, 'ws');
  storeFolder = path.join(root, 'session', 'checkpoints');
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  await mkdir(path.join(workspace, 'nested', 'lib'), { recursive: true });
  await mkdir(path.join(workspace, 'dist'), { recursive: true });
  await mkdir(path.join(workspace, 'node_modules', 'dep'), { recursive: true });
  await writeFile(path.join(workspace, '.gitignore'), 'dist/\n*.log\n');
  await writeFile(path.join(workspace, 'src', 'a.txt'), 'alpha\n');
  await writeFile(path.join(workspace, 'src', 'blob.bin'), Buffer.from([0, 255, 0, 1, 2, 0, 13, 10, 0]));
  await writeFile(path.join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  await chmod(path.join(workspace, 'run.sh'), 0o755);
  await symlink('src/a.txt', path.join(workspace, 'latest'));
  await symlink('/etc/hostname', path.join(workspace, 'outside'));
  await writeFile(path.join(workspace, 'nested', 'lib', 'index.js'), 'export {};\n');
  await writeFile(path.join(workspace, 'dist', 'out.js'), 'built\n');
  await writeFile(path.join(workspace, 'debug.log'), 'log\n');
  await writeFile(path.join(workspace, 'node_modules', 'dep', 'index.js'), 'dep\n');
  git(path.join(workspace, 'nested'), 'init', '-q');
  git(path.join(workspace, 'nested'), 'add', '-A');
  git(path.join(workspace, 'nested'), 'commit', '-qm', 'nested');
  git(workspace, 'init', '-q');
  git(workspace, 'add', 'src');
  git(workspace, 'commit', '-qm', 'outer');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every entry under `folder` with its bytes' hash, mode or link target; `.git` included on request. */
async function snapshot(folder: string, options: { git?: boolean } = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (dir: string, prefix: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      if (name === '.git' && !options.git) continue;
      const absolute = path.join(dir, name);
      const relative = prefix ? `${prefix}/${name}` : name;
      const info = await lstat(absolute);
      if (info.isSymbolicLink()) out[relative] = `link ${await readlink(absolute)}`;
      else if (info.isDirectory()) {
        out[relative] = 'dir';
        await visit(absolute, relative);
      } else {
        const sha = createHash('sha256')
          .update(await readFile(absolute))
          .digest('hex');
        out[relative] = `file ${(info.mode & 0o7777).toString(8)} ${sha}`;
      }
    }
  };
  await visit(folder, '');
  return out;
}

/** The repositories' own folders: a checkpoint or a rewind must leave them byte for byte. */
async function gitFolders(): Promise<Record<string, string>> {
  const outer = await snapshot(path.join(workspace, '.git'), { git: true });
  const nested = await snapshot(path.join(workspace, 'nested', '.git'), { git: true });
  return { ...outer, ...Object.fromEntries(Object.entries(nested).map(([k, v]) => [`nested/${k}`, v])) };
}

/** Moves every file's times an hour back, as for files the person last touched a while ago. */
async function ageFiles(folder: string): Promise<void> {
  const past = new Date(Date.now() - 3600_000);
  for (const [relative, kind] of Object.entries(await snapshot(folder, { git: true })))
    if (kind.startsWith('file')) await utimes(path.join(folder, relative), past, past);
}

async function changeEverything(): Promise<void> {
  await writeFile(path.join(workspace, 'src', 'a.txt'), 'alpha, edited\n');
  await chmod(path.join(workspace, 'src', 'a.txt'), 0o600);
  await unlink(path.join(workspace, 'src', 'blob.bin'));
  await mkdir(path.join(workspace, 'tools'));
  await rename(path.join(workspace, 'run.sh'), path.join(workspace, 'tools', 'run.sh'));
  await unlink(path.join(workspace, 'latest'));
  await symlink('nested', path.join(workspace, 'latest'));
  await writeFile(path.join(workspace, 'nested', 'lib', 'index.js'), 'export const changed = 1;\n');
  await writeFile(path.join(workspace, 'new.txt'), 'new\n');
  await writeFile(path.join(workspace, 'dist', 'out.js'), 'rebuilt\n');
}

describe('checkpoints', () => {
  it('rewind restores exact bytes, modes, links, deleted and renamed files, and leaves .git and ignored files alone', async () => {
    const store = await CheckpointStore.open(storeFolder, workspace);
    const { checkpoint } = await store.record('before write_file', 'call-1');
    const before = await snapshot(workspace);
    const repositories = await gitFolders();

    await changeEverything();
    const changed = await snapshot(workspace);
    const { report } = await store.rewind(checkpoint.id, 'take');

    const after = await snapshot(workspace);
    // The ignored build output keeps its new bytes; everything the checkpoint holds is back.
    expect(after).toEqual({ ...before, 'dist/out.js': changed['dist/out.js'] });
    expect(await gitFolders()).toEqual(repositories);
    // The nested repository's files were captured (index.js came back); its .git was never read.
    const head = createHash('sha256')
      .update(await readFile(path.join(workspace, 'nested', '.git', 'HEAD')))
      .digest('hex');
    expect(await readdir(path.join(storeFolder, 'objects', head.slice(0, 2))).catch(() => [])).not.toContain(
      head.slice(2),
    );
    expect(report.removed).toEqual(expect.arrayContaining(['new.txt', 'tools/run.sh', 'tools']));
    expect(report.written).toEqual(expect.arrayContaining(['src/blob.bin', 'run.sh', 'latest', 'src/a.txt']));
  });

  it('records a link out of the workspace as its target text, never what it points to', async () => {
    const store = await CheckpointStore.open(storeFolder, workspace);
    const { checkpoint } = await store.record('before exec');
    await unlink(path.join(workspace, 'outside'));
    await store.rewind(checkpoint.id, 'take');
    expect(await readlink(path.join(workspace, 'outside'))).toBe('/etc/hostname');
    const stored = await snapshot(path.join(storeFolder, 'objects'));
    const hostname = createHash('sha256')
      .update(await readFile('/etc/hostname'))
      .digest('hex');
    expect(Object.keys(stored).some((name) => name.replace('/', '') === hostname)).toBe(false);
  });

  it('undoes a rewind by rewinding to the checkpoint the rewind made first', async () => {
    const store = await CheckpointStore.open(storeFolder, workspace);
    const { checkpoint } = await store.record('before patch_file');
    await changeEverything();
    const changed = await snapshot(workspace);
    const { undo } = await store.rewind(checkpoint.id, 'take');
    expect(undo.label).toBe(`before rewind to ${checkpoint.id}`);
    await store.rewind(undo.id, 'take');
    expect(await snapshot(workspace)).toEqual(changed);
  });

  it('reads only the changed file when checkpointing again', async () => {
    await ageFiles(workspace);
    const store = await CheckpointStore.open(storeFolder, workspace);
    const first = await store.record('first');
    await writeFile(path.join(workspace, 'src', 'a.txt'), 'one change\n');
    const second = await store.record('second');
    expect(first.read).toBe(first.checkpoint.files);
    expect(second.read).toBe(1);
    expect(second.checkpoint.tree).not.toBe(first.checkpoint.tree);
  });

  it('lists its checkpoints after reopening and rewinds to them', async () => {
    const first = await CheckpointStore.open(storeFolder, workspace);
    const { checkpoint } = await first.record('before exec', 'call-9');
    const before = await snapshot(workspace);
    await writeFile(path.join(workspace, 'src', 'a.txt'), 'later\n');
    const reopened = await CheckpointStore.open(storeFolder, workspace);
    expect(reopened.list().map((c) => [c.id, c.call_id])).toEqual([[checkpoint.id, 'call-9']]);
    await reopened.rewind(checkpoint.id, 'take');
    expect(await snapshot(workspace)).toEqual(before);
  });

  it('records files over the size limit by hash only and names them not restorable', async () => {
    const big = randomBytes(4096);
    await writeFile(path.join(workspace, 'big.bin'), big);
    const store = await CheckpointStore.open(storeFolder, workspace, {
      maxFileBytes: 1024,
      maxStorageBytes: 1 << 30,
    });
    const { checkpoint } = await store.record('before exec');
    expect(checkpoint.not_restorable).toEqual(['big.bin']);
    const bigHash = createHash('sha256').update(big).digest('hex');
    await expect(readFile(path.join(storeFolder, 'objects', bigHash.slice(0, 2), bigHash.slice(2)))).rejects.toThrow();

    await writeFile(path.join(workspace, 'big.bin'), randomBytes(4096));
    const { report } = await store.rewind(checkpoint.id, 'take');
    expect(report.notRestorable).toEqual(['big.bin']);
  });

  it('prunes the oldest checkpoints past the storage limit and says so', async () => {
    const store = await CheckpointStore.open(storeFolder, workspace, {
      maxFileBytes: 1 << 20,
      maxStorageBytes: 300 * 1024,
    });
    const ids: string[] = [];
    const notices: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      await writeFile(path.join(workspace, 'data.bin'), randomBytes(100 * 1024));
      const outcome = await store.record(`round ${round}`);
      ids.push(outcome.checkpoint.id);
      if (outcome.notice) notices.push(outcome.notice);
    }
    expect(notices[0]).toMatch(/^1 old checkpoint pruned to stay under 300.0 KiB: the cards before them can no longer/);
    expect(store.storageBytes).toBeLessThanOrEqual(300 * 1024);
    expect(store.list().map((c) => c.id)).toEqual(ids.slice(-store.list().length));
    await expect(store.rewind(ids[0] ?? '')).rejects.toThrow(/pruned by the storage limit/);
  });

  it('fails the checkpoint with the file and what to do when the disk is full', async (context) => {
    const mounted = await mountSmallFilesystem(256 * 1024);
    if (!mounted.ok) return context.skip(mounted.reason);
    try {
      await writeFile(path.join(workspace, 'large.bin'), randomBytes(512 * 1024));
      const store = await CheckpointStore.open(path.join(mounted.fs.dir, 'checkpoints'), workspace);
      await expect(store.record('before write_file')).rejects.toThrow(
        /could not be made: large\.bin could not be stored .*ENOSPC.*Free some disk space/,
      );
    } finally {
      await mounted.fs.unmount();
    }
  });
});
