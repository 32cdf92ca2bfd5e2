import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSessionFile } from '../main/session/replay.ts';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { compare, fmt, time } from './measure.ts';

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

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-sessions-'));
  try {
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
