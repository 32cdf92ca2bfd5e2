import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../tools/permission-gate.ts';
import { defaultCallHooks } from '../tools/default-call-hooks.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { defineTool } from '../tools/tool.ts';
import { z } from 'zod';
import { StatusRecorder } from '../status/sink.ts';
import { AppendWriter } from './append-writer.ts';
import { SessionLog } from './session-log.ts';
import { SessionSink } from './session-sink.ts';

// Counting fsyncs: a spy on the real FileHandle's sync, which still flushes.
let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-group-commit-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(folder, { recursive: true, force: true });
});

async function countSyncs(): Promise<{ count: () => number }> {
  const probe = await open(path.join(folder, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const spy = vi.spyOn(prototype, 'sync');
  return { count: () => spy.mock.calls.length };
}

it('writes lines appended in the same synchronous stretch under one fsync', async () => {
  const writer = await AppendWriter.open(path.join(folder, 's.jsonl'));
  const syncs = await countSyncs();
  await Promise.all([writer.append('a\n'), writer.append('b\n'), writer.append('c\n')]);
  expect(syncs.count()).toBe(1);
  await writer.close();
  expect(await readFile(writer.file, 'utf8')).toBe('a\nb\nc\n');
});

it('writes an unsynced line without an fsync of its own; the next synced line makes it durable', async () => {
  const writer = await AppendWriter.open(path.join(folder, 's.jsonl'));
  const syncs = await countSyncs();
  await writer.append('nested\n', { sync: false });
  expect(syncs.count()).toBe(0);
  expect(await readFile(writer.file, 'utf8')).toBe('nested\n');
  await writer.append('result\n');
  expect(syncs.count()).toBe(1);
  await writer.close();
});

async function noteRegistry() {
  const log = await SessionLog.create({ root: folder, workspace: folder, model: 'demo' });
  const order: string[] = [];
  const recorder = new StatusRecorder();
  const sink = new SessionSink(log, {
    emit: (event) => {
      order.push(event.type);
      recorder.emit(event);
    },
  });
  const registry = new ToolRegistry({
    workspace: folder,
    sessionDir: log.dir,
    sink,
    store: log,
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no')),
    hooks: defaultCallHooks(),
  });
  return { log, registry, order };
}

/** A tool of `kind` that calls `ran` as it runs (what the panel had heard by then: a start is forwarded once on disk). */
function noteTool(kind: 'exec' | 'read', ran: () => void) {
  return defineTool({
    name: 'note',
    model: { description: 'Records that it ran.', schema: z.object({}), render: (text) => String(text) },
    gate: { kind },
    execute: async () => {
      ran();
      return 'noted';
    },
  });
}

it('hands a read call back before its records are flushed, and tells the panel only once they are', async () => {
  const { log, registry, order } = await noteRegistry();
  registry.register(noteTool('read', () => undefined));
  const probe = await open(path.join(folder, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { sync: (this: unknown) => Promise<void> };
  await probe.close();
  const flush = prototype.sync;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  vi.spyOn(prototype, 'sync').mockImplementation(async function (this: unknown) {
    await held;
    return flush.call(this);
  });
  const outcome = await registry.call({ callId: 'c1', name: 'note', args: {} });
  expect(outcome.content).toBe('noted');
  // Every fsync is still held: the panel has heard nothing of the call.
  expect(order).toEqual([]);
  release();
  await log.close();
  expect(order).toEqual(['tool_started', 'tool_completed']);
  const kinds = (await readFile(log.file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { event?: { type: string } }).event?.type ?? 'content');
  expect(kinds.slice(1)).toEqual(['tool_started', 'content', 'tool_completed']);
});

for (const [kind, before, fsyncs] of [
  ['exec', ['tool_started'], 2],
  ['read', [], 1],
] as const) {
  it(`costs a sequential ${kind} call ${kind === 'read' ? 'one fsync: its start, which it does not wait for, shares the write of' : 'two fsyncs: its start ahead of execution, then'} its content with its completion`, async () => {
    const { log, registry, order } = await noteRegistry();
    const ran: string[] = [];
    registry.register(noteTool(kind, () => ran.push(order.join(','))));
    const syncs = await countSyncs();
    await registry.call({ callId: 'c1', name: 'note', args: {} });
    // A read's caller does not wait for its completion's fsync either: the close waits for it.
    if (kind === 'read') await log.close();
    expect(syncs.count()).toBe(fsyncs);
    expect(ran).toEqual([before.join(',')]);
    await log.close();
    const lines = (await readFile(log.file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string });
    expect(lines.map((line) => line.kind)).toEqual(['header', 'event', 'tool_content', 'event']);
  });
}

it('writes unsynced lines still gathering company with the next synced line, in order, under its fsync', async () => {
  const writer = await AppendWriter.open(path.join(folder, 's.jsonl'));
  const syncs = await countSyncs();
  const nested = [writer.append('n1\n', { sync: false }), writer.append('n2\n', { sync: false })];
  await writer.append('result\n');
  await Promise.all(nested);
  expect(syncs.count()).toBe(1);
  expect(await readFile(writer.file, 'utf8')).toBe('n1\nn2\nresult\n');
  await writer.close();
});

it('lets a gathered synced line wait for the next one: both go in one write, under one fsync', async () => {
  const writer = await AppendWriter.open(path.join(folder, 's.jsonl'));
  const syncs = await countSyncs();
  // A read-only call's start, then its completion once the tool answered: later than a write begun
  // at once would have taken the start alone.
  const start = writer.append('start\n', { gather: true });
  for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  await Promise.all([start, writer.append('completion\n')]);
  expect(syncs.count()).toBe(1);
  expect(await readFile(writer.file, 'utf8')).toBe('start\ncompletion\n');
  // Alone, it is written and flushed all the same, a moment later.
  await writer.append('a start alone\n', { gather: true });
  expect(syncs.count()).toBe(2);
  expect(await readFile(writer.file, 'utf8')).toBe('start\ncompletion\na start alone\n');
  await writer.close();
});

it('writes an unsynced line still gathering company when the file is closed', async () => {
  const writer = await AppendWriter.open(path.join(folder, 's.jsonl'));
  const late = writer.append('late\n', { sync: false });
  await writer.close();
  await late;
  expect(await readFile(writer.file, 'utf8')).toBe('late\n');
});
