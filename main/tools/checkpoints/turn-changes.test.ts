import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { execTool } from '../exec/exec.ts';
import { writeFileTool } from '../files/write-file.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { defaultCallHooks } from '../default-call-hooks.ts';
import { ToolRegistry } from '../registry.ts';
import { SessionCheckpoints } from './call-checkpoints.ts';
import { CheckpointStore, DEFAULT_CHECKPOINT_SETTINGS } from './checkpoint-store.ts';
import { RewindConflictError } from './conflicts.ts';
import { hashOf } from './object-store.ts';
import { revertHunk } from './revert-hunk.ts';
import { spanChanges, turnSpan } from './turn-changes.ts';

// A turn's changes from its checkpoints, with the real file and command tools on a temp workspace.

let root: string;
let workspace: string;
let sessionDir: string;
const BINARY = Buffer.from([0, 1, 2, 255, 0, 10]);

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-turn-changes-'));
  await writeFile(path.join(workspace, 'a.txt'), 'one\ntwo\nthree\n');
  await writeFile(path.join(workspace, 'gone.txt'), 'bye\n');
  await writeFile(path.join(workspace, 'untouched.txt'), 'same\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A turn: write_file makes src/new.ts (or rewrites long.txt), then a command changes a.txt, deletes gone.txt, makes bin.dat. */
async function turn(longText?: string) {
  const checkpoints = new SessionCheckpoints({
    folder: path.join(sessionDir, 'checkpoints'),
    workspace,
    settings: () => ({ ...DEFAULT_CHECKPOINT_SETTINGS, enabled: true }),
  });
  const registry = new ToolRegistry({
    workspace,
    sessionDir,
    sink: new StatusRecorder(),
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'No one can approve in this test.')),
    hooks: defaultCallHooks({ checkpoints }),
  }).register(writeFileTool(), execTool());
  const args =
    longText === undefined
      ? { path: 'src/new.ts', content: 'export const x = 1;\n' }
      : {
          path: 'long.txt',
          content: longText,
          expected_sha256: hashOf(await readFile(path.join(workspace, 'long.txt'))),
        };
  const write = await registry.call({ callId: 'w1', name: 'write_file', args });
  expect(write.isError).toBe(false);
  const command =
    "printf 'one\\nTWO\\nthree\\nfour\\n' > a.txt && rm gone.txt && printf '\\000\\001\\002\\377\\000\\n' > bin.dat";
  const exec = await registry.call({ callId: 'e1', name: 'exec', args: { command } });
  expect(exec.isError).toBe(false);
  const store = await checkpoints.store();
  const span = turnSpan(store, ['r0', 'w1', 'e1']);
  if (!span) throw new Error('the turn has no span');
  return { store, span };
}

it("lists every file a turn's write and command changed, with +/− counts and diffs", async () => {
  const { store, span } = await turn();
  const files = await spanChanges(store, span);
  expect(files.map((file) => [file.path, file.status, file.added, file.removed])).toEqual([
    ['a.txt', 'modified', 2, 1],
    ['bin.dat', 'added', 0, 0],
    ['gone.txt', 'deleted', 0, 1],
    ['src/new.ts', 'added', 1, 0],
  ]);
  const a = files.find((file) => file.path === 'a.txt');
  expect(a?.diff).toContain('--- a/a.txt');
  expect(a?.diff).toContain('-two\n+TWO\n');
  expect(files.find((file) => file.path === 'bin.dat')).toMatchObject({ diff: '', note: 'binary file' });
  expect(files.find((file) => file.path === 'src/new.ts')?.diff).toContain('+export const x = 1;');
  expect(files.map((file) => file.now)).toEqual(['after', 'after', 'after', 'after']);
});

it('reverts one file to its exact bytes before the turn and leaves the others as the turn left them', async () => {
  const { store, span } = await turn();
  const outcome = await store.rewind(span.before.id, {}, new Set(['a.txt']));
  expect(outcome.report.written).toEqual(['a.txt']);
  expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  expect(await readFile(path.join(workspace, 'bin.dat'))).toEqual(BINARY);
  expect(await readFile(path.join(workspace, 'src/new.ts'), 'utf8')).toBe('export const x = 1;\n');
  await expect(readFile(path.join(workspace, 'gone.txt'))).rejects.toThrow(/ENOENT/);
  const states = (await spanChanges(store, span)).map((file) => [file.path, file.now]);
  expect(states).toEqual([
    ['a.txt', 'before'],
    ['bin.dat', 'after'],
    ['gone.txt', 'after'],
    ['src/new.ts', 'after'],
  ]);

  // Revert all: the deleted file comes back, the new ones go, the binary is gone again.
  await store.rewind(span.before.id, {}, new Set(['bin.dat', 'gone.txt', 'src/new.ts']));
  expect(await readFile(path.join(workspace, 'gone.txt'), 'utf8')).toBe('bye\n');
  await expect(readFile(path.join(workspace, 'bin.dat'))).rejects.toThrow(/ENOENT/);
  await expect(readFile(path.join(workspace, 'src/new.ts'))).rejects.toThrow(/ENOENT/);
  expect(await readFile(path.join(workspace, 'untouched.txt'), 'utf8')).toBe('same\n');
});

it('asks before reverting a file the person changed since the turn, and keeps theirs when told', async () => {
  const { store, span } = await turn();
  await writeFile(path.join(workspace, 'a.txt'), 'mine\n');
  const only = new Set(['a.txt', 'src/new.ts']);
  const error = await store.rewind(span.before.id, {}, only).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RewindConflictError);
  expect((error as RewindConflictError).conflicts).toEqual([{ path: 'a.txt', action: 'restore' }]);
  // Nothing was changed by the refused revert.
  expect(await readFile(path.join(workspace, 'src/new.ts'), 'utf8')).toBe('export const x = 1;\n');

  const kept = await store.rewind(span.before.id, { 'a.txt': 'keep' }, only);
  expect(kept.kept).toEqual(['a.txt']);
  expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('mine\n');
  await expect(readFile(path.join(workspace, 'src/new.ts'))).rejects.toThrow(/ENOENT/);
  // The turn's changes are still listed from its own records after the revert.
  expect((await spanChanges(store, span)).length).toBe(4);
});

it("reverts one hunk of a turn's change, keeping the person's edit elsewhere, and refuses over their edit", async () => {
  const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
  await writeFile(path.join(workspace, 'long.txt'), `${lines.join('\n')}\n`);
  const changed = lines.map((line, index) => (index === 1 || index === 25 ? `${line} changed` : line));
  const { store, span } = await turn(`${changed.join('\n')}\n`);
  const file = (await spanChanges(store, span)).find((entry) => entry.path === 'long.txt');
  expect(file?.diff.match(/^@@/gm)).toHaveLength(2);
  // The person edits the file's middle, away from both hunks.
  const theirs = changed.map((line, index) => (index === 14 ? 'their line' : line));
  await writeFile(path.join(workspace, 'long.txt'), `${theirs.join('\n')}\n`);

  const undo = await revertHunk(store, span, 'long.txt', 1);
  const expected = theirs.map((line, index) => (index === 25 ? 'line 26' : line));
  expect(await readFile(path.join(workspace, 'long.txt'), 'utf8')).toBe(`${expected.join('\n')}\n`);
  expect(store.get(undo.id)).toBeDefined();

  // An edit of the person inside the other hunk: refused, the file unchanged.
  const inside = expected.map((line, index) => (index === 1 ? 'their edit' : line));
  await writeFile(path.join(workspace, 'long.txt'), `${inside.join('\n')}\n`);
  await expect(revertHunk(store, span, 'long.txt', 0)).rejects.toThrow(/changed around this hunk/);
  expect(await readFile(path.join(workspace, 'long.txt'), 'utf8')).toBe(`${inside.join('\n')}\n`);
});

it('finishes a revert of some files a crash interrupted, on the next open, without touching the others', async () => {
  const { store, span } = await turn();
  // As if the app died right after writing the journal of "revert a.txt", before any file changed.
  const undo = (await store.record('before rewind')).checkpoint;
  const journal = { target: span.before.id, tree: span.before.tree, undo: undo.id, only: ['a.txt'] };
  await writeFile(path.join(store.folder, 'rewind-journal.json'), JSON.stringify(journal));

  const reopened = await CheckpointStore.open(store.folder, workspace);
  expect(reopened.recoveryNotice).toMatch(/was interrupted .* has been finished now/);
  expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  expect(await readFile(path.join(workspace, 'src/new.ts'), 'utf8')).toBe('export const x = 1;\n');
  await expect(readFile(path.join(workspace, 'gone.txt'))).rejects.toThrow(/ENOENT/);
});
