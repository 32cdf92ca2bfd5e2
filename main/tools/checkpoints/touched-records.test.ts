import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { execTool } from '../exec/exec.ts';
import { writeFileTool } from '../files/write-file.ts';
import { patchFileTool } from '../files/patch-file.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { defaultCallHooks } from '../default-call-hooks.ts';
import { ToolRegistry } from '../registry.ts';
import { SessionCheckpoints } from './call-checkpoints.ts';
import { CheckpointStore, DEFAULT_CHECKPOINT_SETTINGS } from './checkpoint-store.ts';
import { entryAt, spanChanges, turnSpan } from './turn-changes.ts';

// A session's first writes do not wait for the workspace's first whole record: the files they
// change are recorded before they run, and their records are finished once the whole one is. Real
// tools on real temp folders; the crash is a real process killed mid-record.

const temp = useTempWorkspace('aether-touched-records-');
const folder = () => path.join(temp.sessionDir, 'checkpoints');

/** A workspace of a few folders of files, so the whole record has something to scan. */
async function fillWorkspace(): Promise<void> {
  for (let part = 0; part < 5; part += 1) {
    await mkdir(path.join(temp.workspace, 'src', `part-${part}`), { recursive: true });
    for (let file = 0; file < 20; file += 1)
      await writeFile(path.join(temp.workspace, 'src', `part-${part}`, `m${file}.ts`), `export const v = ${file};\n`);
  }
  await writeFile(path.join(temp.workspace, 'a.txt'), 'old\n');
}

function setup() {
  const sink = new StatusRecorder();
  const checkpoints = new SessionCheckpoints({
    folder: folder(),
    workspace: temp.workspace,
    settings: () => ({ ...DEFAULT_CHECKPOINT_SETTINGS, enabled: true }),
  });
  const registry = new ToolRegistry({
    workspace: temp.workspace,
    sessionDir: temp.sessionDir,
    sink,
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'No one can approve in this test.')),
    hooks: defaultCallHooks({ checkpoints }),
  }).register(writeFileTool(), patchFileTool(), execTool());
  const checkpointOf = (callId: string) =>
    sink.ofType('tool_completed').find((event) => event.call_id === callId)?.checkpoint?.id ?? '';
  return { checkpoints, registry, checkpointOf };
}

const read = (relative: string) => readFile(path.join(temp.workspace, relative), 'utf8').catch(() => null);

it("returns a write's checkpoint before the whole record is finished, and finishes it once the write ends", async () => {
  await fillWorkspace();
  const store = await CheckpointStore.open(folder(), temp.workspace);
  const target = path.join(temp.workspace, 'a.txt');
  const before = await store.recordTouching('before write_file', 'w1', [target]);
  // The whole record gives way while the write runs: the record is pending, on disk, not in the list.
  expect(before?.id).toMatch(/^cp-/);
  expect(store.get(before?.id ?? '')).toBeUndefined();
  expect(await readdir(path.join(folder(), 'pending'))).toHaveLength(1);
  await writeFile(target, 'new\n');
  await store.recordAfterCall(before?.id ?? '', 'after write_file');
  await store.settled();
  const [first, after] = store.list();
  expect(first).toMatchObject({ id: before?.id, call_id: 'w1', files: 101 });
  expect(first?.closes).toBeUndefined();
  expect(after).toMatchObject({ call_id: 'w1', closes: before?.id, files: 101 });
  expect(await readdir(path.join(folder(), 'pending'))).toEqual([]);
  await store.rewind(before?.id ?? '');
  expect(await read('a.txt')).toBe('old\n');
  expect(await read('src/part-4/m19.ts')).toBe('export const v = 19;\n');
  store.close();
});

it('records writes made while the whole record runs, and a command right after them, each as it was', async () => {
  await fillWorkspace();
  const { checkpoints, registry, checkpointOf } = setup();
  const first = await registry.call({
    callId: 'w1',
    name: 'write_file',
    args: { path: 'new/deep/one.txt', content: 'one\n' },
  });
  const second = await registry.call({
    callId: 'p1',
    name: 'patch_file',
    args: { path: 'a.txt', edits: [{ old_text: 'old', new_text: 'patched' }] },
  });
  const command = await registry.call({ callId: 'x1', name: 'exec', args: { command: 'echo made > made.txt' } });
  expect([first.isError, second.isError, command.isError]).toEqual([false, false, false]);
  const store = await checkpoints.store();
  const tree = (callId: string) => store.get(checkpointOf(callId))?.tree ?? '';
  // Before the first write: no new folder; before the patch: the write's file, the old a.txt.
  expect(await entryAt(store.objects, tree('w1'), 'new')).toBeNull();
  expect(await entryAt(store.objects, tree('p1'), 'new/deep/one.txt')).toMatchObject({ kind: 'file' });
  const oldA = await entryAt(store.objects, tree('w1'), 'a.txt');
  expect(await entryAt(store.objects, tree('p1'), 'a.txt')).toEqual(oldA);
  // Before the command: both changes, and not the command's own.
  expect(await entryAt(store.objects, tree('x1'), 'a.txt')).not.toEqual(oldA);
  expect(await entryAt(store.objects, tree('x1'), 'made.txt')).toBeNull();
  // The Changes card of the three, and no temp file of a write anywhere in a record.
  const span = turnSpan(store, ['w1', 'p1', 'x1']);
  if (!span) throw new Error('the calls have no span');
  expect((await spanChanges(store, span)).map((file) => [file.path, file.status])).toEqual([
    ['a.txt', 'modified'],
    ['made.txt', 'added'],
    ['new/deep/one.txt', 'added'],
  ]);
  for (const checkpoint of store.list())
    expect(JSON.stringify(await store.objects.readTree(checkpoint.tree))).not.toMatch(/\.aether-\d+-/);
  // Rewinding past the first write takes all three back and asks nothing: they were the agent's.
  expect((await store.preview(checkpointOf('w1'))).conflicts).toEqual([]);
  await store.rewind(checkpointOf('w1'));
  expect([await read('a.txt'), await read('made.txt'), await read('new/deep/one.txt')]).toEqual(['old\n', null, null]);
  expect(await readdir(temp.workspace)).toEqual(['a.txt', 'src']);
});

it('records two writes that run side by side, each before the other changed anything it records', async () => {
  await fillWorkspace();
  const { checkpoints, registry, checkpointOf } = setup();
  const outcomes = await Promise.all([
    registry.call({ callId: 'w1', name: 'write_file', args: { path: 'one.txt', content: '1\n' } }),
    registry.call({ callId: 'w2', name: 'write_file', args: { path: 'two.txt', content: '2\n' } }),
  ]);
  expect(outcomes.map((outcome) => outcome.isError)).toEqual([false, false]);
  const store = await checkpoints.store();
  // Each call between its own two records, the two befores first (the order of their ends may vary).
  const records = store.list();
  expect(records.slice(0, 2).map((checkpoint) => [checkpoint.call_id, checkpoint.closes])).toEqual([
    ['w1', undefined],
    ['w2', undefined],
  ]);
  expect(
    records
      .slice(2)
      .map((checkpoint) => [checkpoint.call_id, checkpoint.closes])
      .sort(),
  ).toEqual([
    ['w1', checkpointOf('w1')],
    ['w2', checkpointOf('w2')],
  ]);
  const first = store.get(checkpointOf('w1'))?.tree ?? '';
  expect(await entryAt(store.objects, first, 'one.txt')).toBeNull();
  expect(await entryAt(store.objects, first, 'two.txt')).toBeNull();
  expect((await store.preview(checkpointOf('w2'))).conflicts).toEqual([]);
  await store.rewind(checkpointOf('w2'));
  expect(await read('two.txt')).toBeNull();
  await store.rewind(checkpointOf('w1'));
  expect([await read('one.txt'), await read('two.txt')]).toEqual([null, null]);
});

it('finishes the record of a write whose process was killed before the whole record ended, at the next open', async () => {
  await fillWorkspace();
  const storeModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'checkpoint-store.ts');
  const target = path.join(temp.workspace, 'a.txt');
  // The whole record gives way to the running write: the kill lands before it could end.
  const program = `
    const { CheckpointStore } = await import(${JSON.stringify(storeModule)});
    const { writeFileSync } = await import('node:fs');
    const store = await CheckpointStore.open(${JSON.stringify(folder())}, ${JSON.stringify(temp.workspace)});
    const before = await store.recordTouching('before write_file', 'w1', [${JSON.stringify(target)}]);
    writeFileSync(${JSON.stringify(target)}, 'written\\n');
    process.stdout.write(before.id);
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'pipe'] });
  let id = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (id += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const signal = await new Promise((resolve) => child.on('close', (_code, killed) => resolve(killed)));
  expect({ signal, errors }).toEqual({ signal: 'SIGKILL', errors: '' });
  expect(await read('a.txt')).toBe('written\n');
  expect(await readdir(path.join(folder(), 'list'))).toEqual([]);

  const store = await CheckpointStore.open(folder(), temp.workspace);
  expect(store.get(id)).toMatchObject({ call_id: 'w1', files: 101 });
  expect(await readdir(path.join(folder(), 'pending'))).toEqual([]);
  // Its record after is missing: the write counts as someone else's, so the rewind asks.
  expect((await store.preview(id)).conflicts).toEqual([{ path: 'a.txt', action: 'restore' }]);
  await store.rewind(id, 'take');
  expect(await read('a.txt')).toBe('old\n');
  expect(await read('src/part-2/m7.ts')).toBe('export const v = 7;\n');
  store.close();
});

it('leaves out of its records a file the workspace ignores, as a whole record does', async () => {
  await fillWorkspace();
  await writeFile(path.join(temp.workspace, '.gitignore'), '*.log\n');
  const store = await CheckpointStore.open(folder(), temp.workspace);
  const files = ['debug.log', 'deep/er/trace.log', 'deep/er/kept.txt'];
  // Three writes recorded by their files, the whole record giving way until they end.
  const befores: string[] = [];
  for (const [index, file] of files.entries()) {
    const before = await store.recordTouching('before write_file', `w${index}`, [path.join(temp.workspace, file)]);
    befores.push(before?.id ?? '');
  }
  expect(befores.every((id) => id.startsWith('cp-'))).toBe(true);
  await mkdir(path.join(temp.workspace, 'deep', 'er'), { recursive: true });
  for (const file of files) await writeFile(path.join(temp.workspace, file), 'x\n');
  for (const id of befores) await store.recordAfterCall(id, 'after write_file');
  await store.settled();
  for (const checkpoint of store.list()) {
    expect(await entryAt(store.objects, checkpoint.tree, 'debug.log')).toBeNull();
    expect(await entryAt(store.objects, checkpoint.tree, 'deep/er/trace.log')).toBeNull();
  }
  expect(await entryAt(store.objects, store.list().at(-1)?.tree ?? '', 'deep/er/kept.txt')).toMatchObject({
    kind: 'file',
  });
  await store.rewind(befores[0] ?? '');
  expect([await read('debug.log'), await read('deep/er/trace.log'), await read('deep/er/kept.txt')]).toEqual([
    'x\n',
    'x\n',
    null,
  ]);
  store.close();
});
