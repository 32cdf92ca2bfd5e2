import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.ts';

// A rewind killed mid-way (a real child process, SIGKILL) is finished on the next open, with a
// notice: the workspace ends as it was after the rewind, never half, and the rewind stays undoable.

const child = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/checkpoint-rewind-child.ts');
const FILES = 300;
let root: string;
let workspace: string;
let folder: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-rewind-journal-'));
  workspace = path.join(root, 'ws');
  folder = path.join(root, 'session', 'checkpoints');
  await mkdir(workspace, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const name = (index: number): string => `f${String(index).padStart(4, '0')}.txt`;
const contents = (): Promise<string[]> =>
  Promise.all(Array.from({ length: FILES }, (_, index) => readFile(path.join(workspace, name(index)), 'utf8')));

it('finishes a rewind killed mid-way on the next open, says so, and can still undo it', async () => {
  for (let index = 0; index < FILES; index += 1) await writeFile(path.join(workspace, name(index)), `old ${index}\n`);
  const store = await CheckpointStore.open(folder, workspace);
  const { checkpoint } = await store.record('before exec', 'call-1');
  for (let index = 0; index < FILES; index += 1) await writeFile(path.join(workspace, name(index)), `new ${index}\n`);

  const running = spawn(process.execPath, [child, folder, workspace, checkpoint.id], { stdio: 'ignore' });
  const exited = new Promise((resolve) => running.on('exit', resolve));
  // Killed as soon as the first file is back: the rest are still the new ones.
  for (;;) {
    const first = await readFile(path.join(workspace, name(0)), 'utf8');
    if (first.startsWith('old')) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  running.kill('SIGKILL');
  await exited;
  const half = await contents();
  expect(half.filter((text) => text.startsWith('new')).length).toBeGreaterThan(0);

  const reopened = await CheckpointStore.open(folder, workspace);
  expect(reopened.recoveryNotice).toMatch(
    new RegExp(`A rewind to ${checkpoint.id} was interrupted .* has been finished now`),
  );
  expect(await contents()).toEqual(Array.from({ length: FILES }, (_, index) => `old ${index}\n`));
  await expect(access(path.join(folder, 'rewind-journal.json'))).rejects.toThrow(/ENOENT/);

  const undo = /rewind to (cp-[0-9a-f]+)\.$/.exec(reopened.recoveryNotice ?? '')?.[1] ?? '';
  await reopened.rewind(undo, 'take');
  expect(await contents()).toEqual(Array.from({ length: FILES }, (_, index) => `new ${index}\n`));
}, 120_000);
