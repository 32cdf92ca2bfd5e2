import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { StatusRecorder } from '../status/sink.ts';
import { SessionLog } from './session-log.ts';
import { SessionSink } from './session-sink.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-session-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function lines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('SessionLog', () => {
  it('starts the file with a header naming the session, workspace and model', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'abc-1' });
    await log.close();
    const [header] = await lines(log.file);
    expect(header).toMatchObject({ kind: 'header', id: 'abc-1', workspace: '/w', model: 'demo', version: 1 });
    expect(log.file).toBe(path.join(root, 'abc-1.jsonl'));
    expect(log.dir).toBe(path.join(root, 'abc-1'));
  });

  it('refuses to write a live-only event', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo' });
    await expect(log.appendEvent({ type: 'assistant_delta', turn_id: 't', text: 'x' })).rejects.toThrow(/live-only/);
    await log.close();
  });

  it('answers tool content by call id after the session is reopened', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 's1' });
    await log.put({ call_id: 'c1', name: 'read_file', content: 'all of it', is_error: false });
    await log.close();
    const { log: again } = await SessionLog.resume(root, 's1');
    expect(again.get('c1')).toEqual({ call_id: 'c1', name: 'read_file', content: 'all of it', is_error: false });
    await again.close();
  });

  it('refuses a session id that could name a path outside the sessions folder', async () => {
    await expect(SessionLog.resume(root, '../etc')).rejects.toThrow(/not a session id/);
  });
});

describe('SessionSink', () => {
  it('stamps increasing seq and time on every event', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo' });
    const recorder = new StatusRecorder();
    const sink = new SessionSink(log, recorder, { now: () => new Date('2025-01-02T03:04:05.000Z') });
    await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
    await sink.emit({ type: 'assistant_delta', turn_id: 't1', text: 'hi' });
    await sink.emit({
      type: 'turn_completed',
      turn_id: 't1',
      usage: { input_tokens: 1, output_tokens: 2 },
      stop_reason: 'end_turn',
    });
    await log.close();
    expect(recorder.events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(recorder.events.every((event) => event.at === '2025-01-02T03:04:05.000Z')).toBe(true);
  });

  it('writes a durable event to disk before the panel hears of it', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo' });
    const onDisk: boolean[] = [];
    const sink = new SessionSink(log, {
      emit: async (event: StatusEvent) => {
        const written = await lines(log.file);
        onDisk.push(written.some((line) => (line['event'] as StatusEvent | undefined)?.seq === event.seq));
      },
    });
    await sink.emit({ type: 'user_message', turn_id: 't1', text: 'hello' });
    await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
    await log.close();
    expect(onDisk).toEqual([true, true]);
  });

  it('forwards live-only events without writing them', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo' });
    const recorder = new StatusRecorder();
    const sink = new SessionSink(log, recorder);
    await sink.emit({ type: 'assistant_delta', turn_id: 't1', text: 'streamed' });
    await sink.emit({ type: 'tool_progress', call_id: 'c1', progress: { text: 'out', cut_bytes: 0, total_bytes: 3 } });
    await log.close();
    expect(recorder.events.map((event) => event.type)).toEqual(['assistant_delta', 'tool_progress']);
    expect((await lines(log.file)).map((line) => line['kind'])).toEqual(['header']);
  });

  it('delivers events in seq order even when a live event follows a durable one still being written', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo' });
    const recorder = new StatusRecorder();
    const sink = new SessionSink(log, recorder);
    const first = sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
    const second = sink.emit({ type: 'assistant_delta', turn_id: 't1', text: 'a' });
    await Promise.all([first, second]);
    await log.close();
    expect(recorder.events.map((event) => event.type)).toEqual(['turn_started', 'assistant_delta']);
  });

  it('continues the seq of a resumed session', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 's2' });
    const sink = new SessionSink(log, new StatusRecorder());
    await sink.emit({ type: 'user_message', turn_id: 't1', text: 'one' });
    await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
    await sink.emit({
      type: 'turn_completed',
      turn_id: 't1',
      usage: { input_tokens: 0, output_tokens: 0 },
      stop_reason: 'end_turn',
    });
    await log.close();
    const { log: again } = await SessionLog.resume(root, 's2');
    const recorder = new StatusRecorder();
    await new SessionSink(again, recorder).emit({ type: 'user_message', turn_id: 't2', text: 'two' });
    await again.close();
    expect(recorder.events[0]?.seq).toBe(4);
  });
});
