import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { AppendWriter } from '../main/session/append-writer.ts';
import { readSessionFile } from '../main/session/replay.ts';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { defineTool } from '../main/tools/tool.ts';
import { compare, fmt, time, type Timing } from './measure.ts';

// The session log fsyncs every durable event before the panel hears of it. Events emitted while a
// write is in flight share the next fsync, so parallel tools do not pay one flush each: compare
// 64 events emitted together against the same 64 emitted one after another. Then replay speed.

const EVENTS = 64;

async function emitAll(root: string, together: boolean): Promise<void> {
  const log = await SessionLog.create({ root, workspace: '/w', model: 'bench' });
  const sink = new SessionSink(log, new StatusRecorder());
  const event = (index: number) => ({
    type: 'tool_started' as const,
    call_id: `c${index}`,
    name: 'read_file',
    args: { path: `src/file-${index}.ts` },
  });
  if (together) await Promise.all(Array.from({ length: EVENTS }, (_, index) => sink.emit(event(index))));
  else for (let index = 0; index < EVENTS; index += 1) await sink.emit(event(index));
  await log.close();
}

const CALLS = 40;

const noop = defineTool({
  name: 'noop',
  model: {
    description: 'Does nothing.',
    schema: z.object({}),
    render: (text) => String(text),
  },
  gate: { kind: 'read' },
  execute: async () => 'ok',
});

/** Median per-call time of CALLS sequential calls through the registry, the real session log as sink and store. */
async function sequentialCalls(root: string): Promise<Timing> {
  const samples: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const log = await SessionLog.create({ root, workspace: root, model: 'bench' });
    const sink = new SessionSink(log, new StatusRecorder());
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask'));
    const registry = new ToolRegistry({
      workspace: root,
      sessionDir: log.dir,
      sink,
      store: log,
      gate,
      hooks: defaultCallHooks(),
    });
    registry.register(noop);
    const start = performance.now();
    for (let index = 0; index < CALLS; index += 1) await registry.call({ callId: `c${index}`, name: 'noop', args: {} });
    samples.push((performance.now() - start) / CALLS);
    await log.close();
  }
  return median(samples);
}

/** Median per-call time of `lines` awaited lines per call (one fsync each): 3 is the old path, 1 one fsync. */
async function awaitedLines(root: string, lines: number): Promise<Timing> {
  const line = `${JSON.stringify({ kind: 'event', event: { type: 'tool_completed', call_id: 'c', name: 'noop' } })}\n`;
  const samples: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const writer = await AppendWriter.open(path.join(root, `lines-${lines}-${run}.jsonl`));
    const start = performance.now();
    for (let index = 0; index < CALLS * lines; index += 1) await writer.append(line);
    samples.push((performance.now() - start) / CALLS);
    await writer.close();
  }
  return median(samples);
}

function median(samples: number[]): Timing {
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)] ?? 0, runs: samples.length };
}

async function sequentialCallRow(root: string): Promise<void> {
  console.log(`a sequential tool call with the fsynced session log (per call, ${CALLS} calls in a row)`);
  const ours = await sequentialCalls(root);
  const old = await awaitedLines(root, 3);
  const one = await awaitedLines(root, 1);
  console.log(`  ${compare('registry call, 2 fsyncs (start; content+end)', ours, old, 'old path, 3 fsyncs')}`);
  console.log(`  ${compare('registry call, 2 fsyncs (start; content+end)', ours, one, 'one fsync')}`);
  console.log(
    '  floor: tool_started must be durable before the tool runs, and its outcome before the panel hears of it:' +
      ' two fsyncs per sequential call, one of them after execution (target ≤ 1.3× one fsync is below that floor)',
  );
}

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-sessions-'));
  try {
    await sequentialCallRow(root);
    console.log(`session log, ${EVENTS} durable events, each fsynced before it is forwarded`);
    const together = await time(9, () => emitAll(root, true));
    const apart = await time(9, () => emitAll(root, false));
    console.log(`  ${compare('emitted together (grouped fsync)', together, apart, 'one after another')}`);

    const log = await SessionLog.create({ root, workspace: '/w', model: 'bench', id: 'replay-bench' });
    const sink = new SessionSink(log, new StatusRecorder());
    const turns = 2000;
    const writes: Promise<void>[] = [];
    for (let turn = 0; turn < turns; turn += 1) {
      const turnId = `t${turn}`;
      writes.push(sink.emit({ type: 'user_message', turn_id: turnId, text: `question ${turn}` }));
      writes.push(
        sink.emit({
          type: 'assistant_message',
          turn_id: turnId,
          text: 'reading',
          tool_calls: [{ call_id: `c${turn}`, name: 'read_file', args: { path: 'a.ts' } }],
        }),
      );
      writes.push(log.put({ call_id: `c${turn}`, name: 'read_file', content: 'x'.repeat(2000), is_error: false }));
      writes.push(
        sink.emit({
          type: 'tool_completed',
          call_id: `c${turn}`,
          name: 'read_file',
          execution_time: 1,
          is_error: false,
          result: { kind: 'text', text: 'x' },
        }),
      );
      writes.push(
        sink.emit({
          type: 'turn_completed',
          turn_id: turnId,
          usage: { input_tokens: 1, output_tokens: 1 },
          stop_reason: 'stop',
        }),
      );
    }
    await Promise.all(writes);
    await log.close();
    const replay = await time(5, () => readSessionFile(log.file));
    console.log(
      `  replay of ${turns} turns (${turns * 5} records): ${fmt(replay.medianMs)} (median of ${replay.runs})`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
