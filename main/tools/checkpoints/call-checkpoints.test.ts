import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { execTool } from '../exec/exec.ts';
import { readFileTool } from '../files/read-file.ts';
import { writeFileTool } from '../files/write-file.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { defaultCallHooks } from '../default-call-hooks.ts';
import { ToolRegistry } from '../registry.ts';
import { SessionCheckpoints } from './call-checkpoints.ts';
import { DEFAULT_CHECKPOINT_SETTINGS } from './checkpoint-store.ts';

// The registry's pre-execution checkpoint, with the real file and command tools on a temp workspace.

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-call-checkpoints-'));
  await writeFile(path.join(workspace, 'a.txt'), 'old\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function setup(options: { folder?: string; enabled?: boolean; maxStorageBytes?: number } = {}) {
  const sink = new StatusRecorder();
  const checkpoints = new SessionCheckpoints({
    folder: options.folder ?? path.join(sessionDir, 'checkpoints'),
    workspace,
    settings: () => ({
      ...DEFAULT_CHECKPOINT_SETTINGS,
      ...(options.maxStorageBytes === undefined ? {} : { maxStorageBytes: options.maxStorageBytes }),
      enabled: options.enabled ?? true,
    }),
  });
  const registry = new ToolRegistry({
    workspace,
    sessionDir,
    sink,
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'No one can approve in this test.')),
    hooks: defaultCallHooks({ checkpoints }),
  }).register(writeFileTool(), readFileTool, execTool());
  return { sink, checkpoints, registry };
}

it('records a checkpoint before a write, names it in the completion, and a rewind to it takes the write back', async () => {
  const { sink, checkpoints, registry } = setup();
  const outcome = await registry.call({ callId: 'w1', name: 'write_file', args: { path: 'b.txt', content: 'new\n' } });
  expect(outcome.isError).toBe(false);
  const completed = sink.ofType('tool_completed')[0];
  const id = completed?.checkpoint?.id ?? '';
  const store = await checkpoints.store();
  expect(store.get(id)).toMatchObject({ call_id: 'w1', label: 'before write_file' });

  await store.rewind(id);
  await expect(readFile(path.join(workspace, 'b.txt'))).rejects.toThrow(/ENOENT/);
  expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('old\n');
});

it("captures what a command changed: rewinding to the exec call's checkpoint undoes it", async () => {
  const { sink, checkpoints, registry } = setup();
  const outcome = await registry.call({
    callId: 'x1',
    name: 'exec',
    args: { command: 'echo changed > a.txt && mkdir -p out/deep && echo made > out/deep/made.txt' },
  });
  expect(outcome.isError).toBe(false);
  expect(await readFile(path.join(workspace, 'out', 'deep', 'made.txt'), 'utf8')).toBe('made\n');
  const id = sink.ofType('tool_completed')[0]?.checkpoint?.id ?? '';
  const { report } = await (await checkpoints.store()).rewind(id);
  expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('old\n');
  await expect(readFile(path.join(workspace, 'out', 'deep', 'made.txt'))).rejects.toThrow(/ENOENT/);
  expect(report.removed).toEqual(['out/deep/made.txt', 'out/deep', 'out']);
});

it('records the workspace after the call too, so its own changes are never a conflict and the person’s are', async () => {
  const { sink, checkpoints, registry } = setup();
  await registry.call({ callId: 'w1', name: 'write_file', args: { path: 'b.txt', content: 'new\n' } });
  await registry.call({ callId: 'x1', name: 'exec', args: { command: 'echo by-command > a.txt' } });
  const store = await checkpoints.store();
  const [before, after] = store.list();
  expect(after).toMatchObject({ call_id: 'w1', label: 'after write_file', closes: before?.id });
  expect(store.beforeCall('w1')?.id).toBe(before?.id);
  const id = sink.ofType('tool_completed')[0]?.checkpoint?.id ?? '';
  expect((await store.preview(id)).conflicts).toEqual([]);
  await writeFile(path.join(workspace, 'b.txt'), 'the person’s\n');
  expect((await store.preview(id)).conflicts).toEqual([{ path: 'b.txt', action: 'remove' }]);
});

it('takes no checkpoint for a read', async () => {
  const { sink, checkpoints, registry } = setup();
  await registry.call({ callId: 'r1', name: 'read_file', args: { path: 'a.txt' } });
  expect(sink.ofType('tool_completed')[0]?.checkpoint).toBeUndefined();
  expect((await checkpoints.store()).list()).toEqual([]);
});

it('fails a write before it runs when its checkpoint cannot be made, saying why', async () => {
  const blocker = path.join(sessionDir, 'not-a-folder');
  await writeFile(blocker, '');
  const { registry } = setup({ folder: path.join(blocker, 'checkpoints') });
  const outcome = await registry.call({ callId: 'w1', name: 'write_file', args: { path: 'b.txt', content: 'x' } });
  expect(outcome.isError).toBe(true);
  expect(outcome.content).toMatch(
    /write_file did not run: The checkpoint store at .*not-a-folder\/checkpoints could not be opened \(ENOTDIR\)\. .*turn checkpoints off in Settings/,
  );
  await expect(readFile(path.join(workspace, 'b.txt'))).rejects.toThrow(/ENOENT/);
});

it('runs a write without a checkpoint when checkpoints are turned off', async () => {
  const { sink, registry } = setup({ enabled: false });
  const outcome = await registry.call({ callId: 'w1', name: 'write_file', args: { path: 'b.txt', content: 'x' } });
  expect(outcome.isError).toBe(false);
  expect(sink.ofType('tool_completed')[0]?.checkpoint).toEqual({ id: '', off: true });
});

it('names in the completion the calls whose checkpoints the storage limit pruned, with a notice that says so', async () => {
  const { sink, checkpoints, registry } = setup({ maxStorageBytes: 150 * 1024 });
  // A command first: the writes after it are recorded whole, each before its card completes.
  await registry.call({ callId: 'x0', name: 'exec', args: { command: 'true' } });
  for (const [index, callId] of ['w1', 'w2', 'w3', 'w4'].entries())
    await registry.call({
      callId,
      name: 'write_file',
      args: { path: `data${index}.txt`, content: `${index}`.repeat(60 * 1024) },
    });
  const completions = sink.ofType('tool_completed').map((event) => event.checkpoint);
  const pruning = completions.find((checkpoint) => checkpoint?.pruned_calls !== undefined);
  expect(pruning?.notice).toMatch(/^\d+ old checkpoints? pruned to stay under 150\.0 KiB: the cards before them/);
  expect(pruning?.pruned_calls).toContain('w1');
  const store = await checkpoints.store();
  expect(store.beforeCall('w1')).toBeUndefined();
  for (const id of pruning?.pruned ?? []) expect(store.get(id)).toBeUndefined();
});
