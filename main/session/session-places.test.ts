import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { locateSession, sessionFolderOf } from './session-places.ts';

// Finding a session by its id alone: a top-level one, an agent's under its parent, an agent's agent
// two levels down; a folder that only looks like a session's, a bad id and a missing one.

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-places-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function touch(...parts: string[]): Promise<void> {
  await mkdir(path.join(root, ...parts.slice(0, -1)), { recursive: true });
  await writeFile(path.join(root, ...parts), '{}\n');
}

it('finds a top-level session, an agent of it and an agent of that agent, naming their parents', async () => {
  await touch('p1.jsonl');
  await touch('p1', 'agents', 'c1.jsonl');
  await touch('p1', 'agents', 'c1', 'agents', 'g1.jsonl');
  expect(await locateSession(root, 'p1')).toEqual({ id: 'p1', folder: root, parents: [] });
  expect(await locateSession(root, 'c1')).toEqual({
    id: 'c1',
    folder: path.join(root, 'p1', 'agents'),
    parents: ['p1'],
  });
  expect(await locateSession(root, 'g1')).toEqual({
    id: 'g1',
    folder: path.join(root, 'p1', 'agents', 'c1', 'agents'),
    parents: ['p1', 'c1'],
  });
});

it('does not take a folder of agents whose parent file is gone, nor a folder named like a session file', async () => {
  // A parent deleted by hand leaves its folder: its agents are not found through it.
  await touch('gone', 'agents', 'c2.jsonl');
  await mkdir(path.join(root, 'p2', 'agents', 'c3.jsonl'), { recursive: true });
  await touch('p2.jsonl');
  expect(await locateSession(root, 'c2')).toBeNull();
  expect(await locateSession(root, 'c3')).toBeNull();
  await expect(sessionFolderOf(root, 'c3')).rejects.toThrow(`No session c3 in ${root}, nor among its sessions' agents`);
});

it('refuses an id that is not one before looking anywhere, and answers null in a folder that does not exist', async () => {
  await expect(locateSession(root, '../p1')).rejects.toThrow('is not a session id');
  expect(await locateSession(path.join(root, 'none'), 'p1')).toBeNull();
});
