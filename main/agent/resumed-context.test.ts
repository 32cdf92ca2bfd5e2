import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatusRecorder } from '../status/sink.ts';
import { readSessionFile } from '../session/replay.ts';
import { SessionLog } from '../session/session-log.ts';
import { SessionSink } from '../session/session-sink.ts';
import { writeReadCall } from '../../test/session-writing.ts';
import { contextLater, ModelContext } from './resumed-context.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-resumed-context-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A session with every kind of record the model context is made of, and a call left open. */
async function writeRichSession(): Promise<string> {
  const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'rich' });
  const sink = new SessionSink(log, new StatusRecorder());
  await log.put({ call_id: 'm1', name: 'read_file', content: '1\tmentioned', is_error: false });
  await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Look at @a.txt', mention_calls: ['m1'] });
  await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
  await sink.emit({ type: 'context_message', turn_id: 't1', source: 'AGENTS.md', text: '<doc/>', change: 'loaded' });
  await log.appendReasoning([{ provider: 'anthropic', text: 'thinking it over', data: { signature: 's' } }]);
  await writeReadCall(log, sink);
  const usage = { input_tokens: 3, output_tokens: 4 };
  await sink.emit({ type: 'turn_completed', turn_id: 't1', usage, stop_reason: 'end_turn' });
  await sink.emit({
    type: 'compaction',
    trigger: 'manual',
    model: 'demo',
    summary: 'They read a.txt.',
    tokens_before: 100,
    tokens_after: 20,
    kept_messages: 4,
    kept_user_message: 'Look at @a.txt',
    kept_call_ids: ['c1'],
  });
  await sink.emit({ type: 'user_message', turn_id: 't2', text: 'Run it' });
  await sink.emit({ type: 'turn_started', turn_id: 't2', model: 'demo' });
  await sink.emit({
    type: 'assistant_message',
    turn_id: 't2',
    text: '',
    tool_calls: [{ call_id: 'c2', name: 'exec', args: { command: 'make' } }],
  });
  await sink.emit({ type: 'tool_started', turn_id: 't2', call_id: 'c2', name: 'exec', args: { command: 'make' } });
  await log.close();
  return log.file;
}

describe('a resumed session’s model context, built when first needed', () => {
  it('is built only when asked for, and then equals the context replay builds from every event', async () => {
    const file = await writeRichSession();
    const whole = (await readSessionFile(file)).context;
    // Every kind of record is in it: the mention, the instructions, the summary, the reasoning, the call left open.
    const text = JSON.stringify(whole);
    for (const part of ['1\\tmentioned', '<doc/>', 'They read a.txt.', 'thinking it over', 'Interrupted'])
      expect(text).toContain(part);

    const later = contextLater(await readSessionFile(file));
    // Tool starts and results are not kept for it (the call left open is closed by a repair event).
    expect(later.events.map((event) => event.type)).toEqual([
      'user_message',
      'context_message',
      'assistant_message',
      'compaction',
      'user_message',
      'assistant_message',
    ]);
    const context = new ModelContext(later.messages, later.buildContext, path.join(root, 'rich'));
    expect(context.messages).toEqual([]);
    expect(context.now()).toEqual(whole);
    // Built once: the same messages, nothing added twice.
    expect(await context.loaded()).toBe(context.messages);
    expect(context.messages).toEqual(whole);
  });
});
