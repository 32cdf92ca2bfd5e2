import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.ts';
import { RewindConflictError } from './conflicts.ts';

// The conflict check of a rewind, on real temp folders: the agent's calls are recorded before and
// after (as the registry does), the person edits files between and after them, and a rewind lists
// exactly the person's files, restoring them only as the person chooses.

let root: string;
let workspace: string;
let folder: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-conflicts-'));
  workspace = path.join(root, 'ws');
  folder = path.join(root, 'session', 'checkpoints');
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  await writeFile(path.join(workspace, 'src', 'agent.txt'), 'v0\n');
  await writeFile(path.join(workspace, 'src', 'mine.txt'), 'v0\n');
  await writeFile(path.join(workspace, 'between.txt'), 'v0\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = (name: string, text: string): Promise<void> => writeFile(path.join(workspace, name), text);
const read = (name: string): Promise<string> => readFile(path.join(workspace, name), 'utf8').catch(() => '(none)');

/** A call of the agent: recorded before, its change, recorded after. */
async function agentCall(store: CheckpointStore, callId: string, change: () => Promise<void>): Promise<string> {
  const { checkpoint } = await store.record('before write_file', callId);
  await change();
  await store.recordAfter(checkpoint.id, 'after write_file');
  return checkpoint.id;
}

async function scenario(): Promise<{ store: CheckpointStore; first: string }> {
  const store = await CheckpointStore.open(folder, workspace);
  const first = await agentCall(store, 'call-1', () => write('src/agent.txt', 'agent 1\n'));
  await write('between.txt', 'person between calls\n');
  await agentCall(store, 'call-2', async () => {
    await write('src/agent.txt', 'agent 2\n');
    await write('src/made-by-agent.txt', 'new\n');
  });
  await write('src/mine.txt', 'person after\n');
  await write('src/person-new.txt', 'person created\n');
  return { store, first };
}

it('lists only the files someone other than the agent changed, with what the rewind would do to each', async () => {
  const { store, first } = await scenario();
  const preview = await store.preview(first);
  expect(preview.conflicts).toEqual([
    { path: 'between.txt', action: 'restore' },
    { path: 'src/mine.txt', action: 'restore' },
    { path: 'src/person-new.txt', action: 'remove' },
  ]);
  expect(preview.writes.map((step) => step.path)).toContain('src/agent.txt');
});

it('changes nothing when a conflict has no choice, and names the files', async () => {
  const { store, first } = await scenario();
  const error = await store.rewind(first).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RewindConflictError);
  expect((error as RewindConflictError).conflicts.map((conflict) => conflict.path)).toEqual([
    'between.txt',
    'src/mine.txt',
    'src/person-new.txt',
  ]);
  expect((error as Error).message).toMatch(/keep your version or take the checkpoint’s/);
  expect(await read('src/agent.txt')).toBe('agent 2\n');
  expect(await read('src/mine.txt')).toBe('person after\n');
});

it('keeps the files the person keeps, takes the others, and rewinds the agent’s changes', async () => {
  const { store, first } = await scenario();
  const { kept } = await store.rewind(first, {
    'src/mine.txt': 'keep',
    'src/person-new.txt': 'keep',
    'between.txt': 'take',
  });
  expect(kept).toEqual(['src/mine.txt', 'src/person-new.txt']);
  expect(await read('src/agent.txt')).toBe('v0\n');
  expect(await read('src/made-by-agent.txt')).toBe('(none)');
  expect(await read('between.txt')).toBe('v0\n');
  expect(await read('src/mine.txt')).toBe('person after\n');
  expect(await read('src/person-new.txt')).toBe('person created\n');
});

it('takes every conflicting file with one choice, and its undo sees no conflict of its own making', async () => {
  const { store, first } = await scenario();
  const { undo } = await store.rewind(first, 'take');
  expect(await read('src/mine.txt')).toBe('v0\n');
  expect(await read('src/person-new.txt')).toBe('(none)');
  // The rewind's own changes are not the person's: undoing it right away asks nothing.
  expect((await store.preview(undo.id)).conflicts).toEqual([]);
  await write('src/agent.txt', 'person edits after the rewind\n');
  expect((await store.preview(undo.id)).conflicts).toEqual([{ path: 'src/agent.txt', action: 'restore' }]);
  await store.rewind(undo.id, 'take');
  expect(await read('src/mine.txt')).toBe('person after\n');
  expect(await read('src/agent.txt')).toBe('agent 2\n');
});

it('counts the changes of a call that has no record after it (the app stopped mid-call) as conflicts', async () => {
  const store = await CheckpointStore.open(folder, workspace);
  const { checkpoint } = await store.record('before exec', 'call-1');
  await write('src/agent.txt', 'half-done call\n');
  expect((await store.preview(checkpoint.id)).conflicts).toEqual([{ path: 'src/agent.txt', action: 'restore' }]);
  const reopened = await CheckpointStore.open(folder, workspace);
  expect(reopened.beforeCall('call-1')?.id).toBe(checkpoint.id);
});

it('counts changes made while calls overlap (children side by side) as the agent’s, and those after both as the person’s', async () => {
  const store = await CheckpointStore.open(folder, workspace);
  // Outer: an agent call around its children; inner: two children's writes, each open across the other's.
  const outer = (await store.record('before agent', 'agent-1')).checkpoint;
  const left = (await store.record('before write_file', 'agent-1/w-1')).checkpoint;
  const right = (await store.record('before write_file', 'agent-2/w-1')).checkpoint;
  await write('src/agent.txt', 'left child\n');
  await store.recordAfter(left.id, 'after write_file');
  await write('src/made-by-agent.txt', 'right child\n');
  await store.recordAfter(right.id, 'after write_file');
  await store.recordAfter(outer.id, 'after agent');
  await write('src/mine.txt', 'person after\n');
  const preview = await store.preview(outer.id);
  expect(preview.conflicts).toEqual([{ path: 'src/mine.txt', action: 'restore' }]);
  // From a record inside the outer call, the steps inside it are still the agent's.
  expect((await store.preview(right.id)).conflicts).toEqual([{ path: 'src/mine.txt', action: 'restore' }]);
});
