import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confinePath, displayPath, isInside, realWorkspaceRoot } from './workspace.ts';

let base: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-confine-')));
  root = path.join(base, 'ws');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await writeFile(path.join(root, 'src', 'a.ts'), 'a');
  await writeFile(path.join(base, 'secret.txt'), 'secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('confinePath', () => {
  it('resolves a relative path inside the workspace to its real path', async () => {
    expect(await confinePath(root, 'src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('accepts a path that does not exist yet under an existing folder', async () => {
    expect(await confinePath(root, 'src/new/deep.ts')).toBe(path.join(root, 'src', 'new', 'deep.ts'));
  });

  it('refuses traversal with ..', async () => {
    await expect(confinePath(root, '../secret.txt')).rejects.toThrow(/outside the workspace/);
    await expect(confinePath(root, 'src/../../secret.txt')).rejects.toThrow(/outside the workspace/);
  });

  it('refuses an absolute path outside', async () => {
    await expect(confinePath(root, path.join(base, 'secret.txt'))).rejects.toThrow(/outside the workspace/);
  });

  it('accepts an absolute path inside', async () => {
    expect(await confinePath(root, path.join(root, 'src', 'a.ts'))).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('refuses a symlink that points out', async () => {
    await symlink(path.join(base, 'secret.txt'), path.join(root, 'link.txt'));
    await expect(confinePath(root, 'link.txt')).rejects.toThrow(/resolves to .*secret\.txt/);
  });

  it('refuses a path through a symlinked folder that points out', async () => {
    await symlink(base, path.join(root, 'up'));
    await expect(confinePath(root, 'up/secret.txt')).rejects.toThrow(/outside the workspace/);
    await expect(confinePath(root, 'up/not-yet.txt')).rejects.toThrow(/outside the workspace/);
  });

  it('refuses a dangling symlink that points out', async () => {
    await symlink(path.join(base, 'missing.txt'), path.join(root, 'dangling.txt'));
    await expect(confinePath(root, 'dangling.txt')).rejects.toThrow(/resolves to .*missing\.txt/);
  });

  it('follows a dangling symlink that points inside', async () => {
    await symlink(path.join(root, 'src', 'later.ts'), path.join(root, 'later-link.ts'));
    expect(await confinePath(root, 'later-link.ts')).toBe(path.join(root, 'src', 'later.ts'));
  });

  it('accepts a symlink that stays inside', async () => {
    await symlink(path.join(root, 'src'), path.join(root, 'alias'));
    expect(await confinePath(root, 'alias/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('refuses a symlink loop with a clear error', async () => {
    await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    await expect(confinePath(root, 'loop-a')).rejects.toThrow();
  });

  it('refuses an empty path and a NUL byte', async () => {
    await expect(confinePath(root, '')).rejects.toThrow(/empty/);
    await expect(confinePath(root, 'a\0b')).rejects.toThrow(/NUL/);
  });

  it('accepts a name inside the workspace that merely starts with two dots', async () => {
    await writeFile(path.join(root, '..notes'), 'n');
    expect(await confinePath(root, '..notes')).toBe(path.join(root, '..notes'));
    expect(isInside(root, path.join(root, '..cache', 'x'))).toBe(true);
  });

  it('does not mistake a sibling folder with the same prefix for the inside', async () => {
    await mkdir(`${root}-sibling`);
    await expect(confinePath(root, `${root}-sibling/x`)).rejects.toThrow(/outside the workspace/);
    expect(isInside(root, `${root}-sibling`)).toBe(false);
  });
});

describe('workspace helpers', () => {
  it('gives the real root and a clear error for a missing one', async () => {
    expect(await realWorkspaceRoot(root)).toBe(root);
    await expect(realWorkspaceRoot(path.join(base, 'nope'))).rejects.toThrow(/does not exist/);
  });

  it('displays paths relative to the root with / separators', () => {
    expect(displayPath(root, path.join(root, 'src', 'a.ts'))).toBe('src/a.ts');
    expect(displayPath(root, root)).toBe('.');
  });
});
