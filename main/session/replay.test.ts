import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { StatusRecorder } from '../status/sink.ts';
import { interruptedContent } from './context.ts';
import { readSessionFile } from './replay.ts';
import { SessionLog } from './session-log.ts';
import { SessionSink } from './session-sink.ts';
import { writeReadCall } from '../../test/session-writing.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-replay-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const usage = { input_tokens: 3, output_tokens: 4 };

/** A finished turn: a question, one read call with its result, an answer. */
async function writeFinishedTurn(id: string): Promise<SessionLog> {
  const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id });
  const sink = new SessionSink(log, new StatusRecorder());
  await sink.emit({ type: 'user_message', turn_id: 't1', text: 'What is in a.txt?' });
  await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
  await writeReadCall(log, sink);
  await sink.emit({ type: 'assistant_message', turn_id: 't1', text: 'It says hello.', tool_calls: [] });
  await sink.emit({ type: 'turn_completed', turn_id: 't1', usage, stop_reason: 'end_turn' });
  return log;
}

describe('readSessionFile', () => {
  it('rebuilds the model context of a finished turn', async () => {
    const log = await writeFinishedTurn('ok');
    await log.close();
    const replay = await readSessionFile(log.file);
    expect(replay.context).toEqual([
      { role: 'user', content: 'What is in a.txt?' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [{ call_id: 'c1', name: 'read_file', args: { path: 'a.txt' } }],
      },
      { role: 'tool', call_id: 'c1', name: 'read_file', content: '1\thello', is_error: false },
      { role: 'assistant', content: 'It says hello.', tool_calls: [] },
    ]);
    expect(replay.repairs).toEqual([]);
    expect(replay.usage).toEqual(usage);
    expect(replay.title).toBe('What is in a.txt?');
  });

  it('leaves a torn last line out and reports where it starts', async () => {
    const log = await writeFinishedTurn('torn');
    await log.close();
    const whole = (await readFile(log.file)).length;
    await appendFile(log.file, '{"kind":"event","event":{"type":"user_mess');
    const replay = await readSessionFile(log.file);
    expect(replay.torn?.offset).toBe(whole);
    expect(replay.torn?.bytes.toString()).toBe('{"kind":"event","event":{"type":"user_mess');
    expect(replay.events.filter((event) => event.type === 'user_message')).toHaveLength(1);
    expect(replay.corrupt).toEqual([]);
  });

  it('skips and counts a corrupt line in the middle and still replays the lines after it', async () => {
    const log = await writeFinishedTurn('middle');
    await log.close();
    const text = await readFile(log.file, 'utf8');
    const rows = text.split('\n');
    rows.splice(3, 0, '{"kind":"event","event":{"type":"nonsense"}}', 'garbage \u0000 line');
    await writeFile(log.file, rows.join('\n'));
    const replay = await readSessionFile(log.file);
    expect(replay.corrupt.map((entry) => entry.line)).toEqual([4, 5]);
    expect(replay.corrupt[1]?.reason).toMatch(/not JSON/);
    expect(replay.events.at(-1)?.type).toBe('turn_completed');
    expect(replay.context).toHaveLength(4);
  });

  it('gives an assistant message back the reasoning recorded just before it', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'anthropic:x', id: 'thinking' });
    const sink = new SessionSink(log, new StatusRecorder());
    const blocks = [{ provider: 'anthropic', text: 'Let me look.', data: { signature: 'sig' } }];
    await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Look' });
    await log.appendReasoning(blocks);
    await sink.emit({
      type: 'assistant_message',
      turn_id: 't1',
      text: '',
      tool_calls: [{ call_id: 'r', name: 'list_dir', args: {} }],
    });
    await log.put({ call_id: 'r', name: 'list_dir', content: 'a', is_error: false });
    await sink.emit({
      type: 'tool_completed',
      call_id: 'r',
      name: 'list_dir',
      execution_time: 0,
      is_error: false,
      result: { kind: 'text', text: 'a' },
    });
    await sink.emit({ type: 'assistant_message', turn_id: 't1', text: 'Done', tool_calls: [] });
    await log.close();
    const replay = await readSessionFile(log.file);
    expect(replay.context[1]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ call_id: 'r', name: 'list_dir', args: {} }],
      reasoning: blocks,
    });
    expect(replay.context[3]).toEqual({ role: 'assistant', content: 'Done', tool_calls: [] });
  });

  it('refuses a file whose first line is not a session header', async () => {
    const file = path.join(root, 'x.jsonl');
    await writeFile(file, '{"kind":"event"}\n');
    await expect(readSessionFile(file)).rejects.toThrow(/not a readable session/);
  });

  it('closes a dangling call with an interrupted result for the card and the model', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'dangling' });
    const sink = new SessionSink(log, new StatusRecorder());
    await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Write it' });
    await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
    await sink.emit({
      type: 'assistant_message',
      turn_id: 't1',
      text: '',
      tool_calls: [{ call_id: 'w1', name: 'write_file', args: { path: 'b.txt' } }],
    });
    await sink.emit({
      type: 'tool_started',
      call_id: 'w1',
      name: 'write_file',
      args: { path: 'b.txt' },
      turn_id: 't1',
    });
    await log.close();

    const replay = await readSessionFile(log.file, { now: () => new Date('2025-01-01T00:00:00.000Z') });
    const repaired = replay.events.slice(4);
    expect(repaired.map((event) => event.type)).toEqual(['tool_completed', 'turn_failed']);
    expect(repaired[0]).toMatchObject({ type: 'tool_completed', call_id: 'w1', is_error: true, seq: 5 });
    expect(repaired[1]).toMatchObject({ type: 'turn_failed', turn_id: 't1', seq: 6 });
    expect(replay.context.at(-1)).toEqual({
      role: 'tool',
      call_id: 'w1',
      name: 'write_file',
      content: interruptedContent('write_file'),
      is_error: true,
    });
  });

  it('keeps the content of a call whose completion event was lost', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'lost' });
    const sink = new SessionSink(log, new StatusRecorder());
    await sink.emit({
      type: 'assistant_message',
      turn_id: 't1',
      text: '',
      tool_calls: [{ call_id: 'r1', name: 'list_dir', args: {} }],
    });
    await log.put({ call_id: 'r1', name: 'list_dir', content: 'a.txt', is_error: false });
    await log.close();
    const replay = await readSessionFile(log.file);
    expect(replay.events.at(-1)).toMatchObject({
      type: 'tool_completed',
      call_id: 'r1',
      is_error: false,
      result: { kind: 'text', text: 'a.txt' },
    });
    expect(replay.context.at(-1)).toMatchObject({ role: 'tool', content: 'a.txt' });
  });

  it('denies an approval nobody answered', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'asked' });
    const sink = new SessionSink(log, new StatusRecorder());
    await sink.emit({
      type: 'tool_approval_requested',
      call_id: 'x1',
      name: 'exec',
      request: { title: 'Run ls', detail: 'ls', scope: 'exec' },
    });
    await log.close();
    const replay = await readSessionFile(log.file);
    expect(replay.events).toContainEqual(
      expect.objectContaining({ type: 'tool_approval_resolved', call_id: 'x1', answer: 'deny' }),
    );
  });
});

describe('SessionLog.resume', () => {
  it('cuts a torn tail into a .corrupt sidecar and appends cleanly after it', async () => {
    const log = await writeFinishedTurn('cut');
    await log.close();
    const before = await readFile(log.file, 'utf8');
    await appendFile(log.file, '{"kind":"tool_con');
    const { log: again } = await SessionLog.resume(root, 'cut');
    await new SessionSink(again, new StatusRecorder()).emit({ type: 'user_message', turn_id: 't2', text: 'next' });
    await again.close();
    expect(await readFile(`${log.file}.corrupt`, 'utf8')).toBe('{"kind":"tool_con\n');
    const after = await readFile(log.file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const replay = await readSessionFile(log.file);
    expect(replay.torn).toBeNull();
    expect(replay.events.at(-1)).toMatchObject({ type: 'user_message', text: 'next' });
  });

  it('writes the repairs of a dangling call once, so a second reopening finds nothing left open', async () => {
    const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'twice' });
    const sink = new SessionSink(log, new StatusRecorder());
    await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
    await sink.emit({
      type: 'assistant_message',
      turn_id: 't1',
      text: '',
      tool_calls: [{ call_id: 'e1', name: 'exec', args: { command: 'make' } }],
    });
    await log.close();
    const first = await SessionLog.resume(root, 'twice');
    await first.log.close();
    expect(first.replay.repairs).toHaveLength(3);
    expect(first.log.get('e1')?.content).toBe(interruptedContent('exec'));
    const second = await readSessionFile(log.file);
    expect(second.repairs).toEqual([]);
    expect(second.events.filter((event: StatusEvent) => event.type === 'tool_completed')).toHaveLength(1);
  });
});
