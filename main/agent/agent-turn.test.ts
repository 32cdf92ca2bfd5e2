import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCompletedEvent } from '../../protocol/events.ts';
import { DEFAULT_RULES } from '../tools/permission-gate.ts';
import { headlessGate } from './permissions.ts';
import { conversationOf, sessionLines, startRig, waitForEvent, WIRES, type Rig } from '../../test/agent-kit.ts';

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe.each(WIRES)('a turn over the %s wire', (wire) => {
  it('streams a text-only answer and completes with the usage and stop reason', async () => {
    rig = await startRig(wire, {
      script: { steps: [{ text: ['Hel', 'lo ', 'there.'], usage: { input_tokens: 7, output_tokens: 3 } }] },
    });
    const sent = rig.session.send('Say hello');
    const outcome = await rig.session.idle();

    expect(sent).toMatchObject({ ok: true, value: { queued: false } });
    expect(outcome).toEqual({ status: 'completed', usage: { input_tokens: 7, output_tokens: 3 }, stopReason: 'stop' });
    expect(rig.recorder.events.map((event) => event.type)).toEqual([
      'user_message',
      'turn_started',
      'context_estimate',
      'assistant_delta',
      'assistant_delta',
      'assistant_delta',
      'step_usage',
      'assistant_message',
      'turn_completed',
    ]);
    expect(rig.recorder.ofType('assistant_message')[0]).toMatchObject({ text: 'Hello there.', tool_calls: [] });
    expect(rig.recorder.ofType('turn_completed')[0]).toMatchObject({
      usage: { input_tokens: 7, output_tokens: 3 },
      stop_reason: 'stop',
    });
    expect(conversationOf(rig.server.requests[0]!.body)).toEqual([{ kind: 'user', text: 'Say hello' }]);
  });

  it('sends every tool result back to the model whole, while the card gets a short echo', async () => {
    rig = await startRig(wire, {
      script: {
        steps: [
          { text: ['Reading.'], tool_calls: [{ id: 'call_a', name: 'read_note', args: { path: 'a.txt' } }] },
          { text: ['It is long.'] },
        ],
      },
    });
    const whole = Array.from({ length: 600 }, (_, index) => `line ${index} of the note`).join('\n');
    await writeFile(path.join(rig.workspace, 'a.txt'), whole);
    rig.session.send('Read a.txt');
    const outcome = await rig.session.idle();

    expect(outcome?.status).toBe('completed');
    expect(outcome?.usage).toEqual({ input_tokens: 24, output_tokens: 12 });
    const echo = rig.recorder.ofType('tool_completed')[0]!.result;
    expect(echo.kind).toBe('text');
    expect(String(echo['text']).length).toBeLessThanOrEqual(4000);
    expect(conversationOf(rig.server.requests[1]!.body)).toEqual([
      { kind: 'user', text: 'Read a.txt' },
      { kind: 'assistant', text: 'Reading.', calls: ['call_a'] },
      { kind: 'tool', id: 'call_a', content: whole },
    ]);
    expect(rig.session.toolContent('call_a')).toEqual({
      ok: true,
      value: { call_id: 'call_a', name: 'read_note', content: whole, is_error: false },
    });
  });

  it('delivers a message sent during a tool call as a user message before the next model step', async () => {
    rig = await startRig(wire, {
      script: { steps: [{ tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h1' } }] }, { text: ['Both done.'] }] },
    });
    const first = rig.session.send('Start the long thing');
    await rig.kit.running('h1');
    const second = rig.session.send('Also tell me when it ends');
    rig.kit.release('h1');
    const outcome = await rig.session.idle();

    expect(outcome?.status).toBe('completed');
    const turnId = first.ok ? first.value.turn_id : '';
    expect(second).toMatchObject({ ok: true, value: { turn_id: turnId, queued: true } });
    expect(conversationOf(rig.server.requests[1]!.body).slice(-2)).toEqual([
      { kind: 'tool', id: 'h', content: 'released h1' },
      { kind: 'user', text: 'Also tell me when it ends' },
    ]);
    const types = rig.recorder.events.filter((event) => event.type !== 'assistant_delta').map((event) => event.type);
    expect(types).toEqual([
      'user_message',
      'turn_started',
      'context_estimate',
      'step_usage',
      'assistant_message',
      'tool_started',
      'queue',
      'tool_completed',
      'user_message',
      'context_estimate',
      'step_usage',
      'assistant_message',
      'turn_completed',
    ]);
    expect(rig.recorder.ofType('user_message').map((event) => event.turn_id)).toEqual([turnId, turnId]);
  });
});

describe('the queue', () => {
  it('starts a new turn with a message that was waiting when the turn failed', async () => {
    const words = Array.from({ length: 30 }, (_, index) => `w${index} `);
    rig = await startRig('openai', {
      script: {
        steps: [
          { text: words, chunk_delay_ms: 40, fault: { type: 'error_event', after_events: 20 } },
          { text: ['Recovered.'] },
        ],
      },
    });
    rig.session.send('Talk');
    await waitForEvent(rig.recorder, (event) => event.type === 'assistant_delta');
    const queued = rig.session.send('Then this');
    const outcome = await rig.session.idle();

    expect(queued).toMatchObject({ ok: true, value: { queued: true } });
    expect(outcome?.status).toBe('completed');
    const turns = rig.recorder.ofType('turn_started').map((event) => event.turn_id);
    expect(turns).toHaveLength(2);
    expect(rig.recorder.ofType('turn_failed').map((event) => event.turn_id)).toEqual([turns[0]]);
    expect(rig.recorder.ofType('user_message').map((event) => [event.turn_id, event.text])).toEqual([
      [turns[0], 'Talk'],
      [turns[1], 'Then this'],
    ]);
  });
});

describe('tool calls of one step', () => {
  it('runs consecutive read-only calls together, a write alone and in place, and returns results in source order', async () => {
    rig = await startRig('anthropic', {
      script: {
        steps: [
          {
            tool_calls: [
              { id: 'p1', name: 'probe', args: { name: 'p1', together: 2 } },
              { id: 'p2', name: 'probe', args: { name: 'p2', together: 2 } },
              { id: 'w1', name: 'append_line', args: { path: 'log.txt', line: 'first' } },
              { id: 'w2', name: 'append_line', args: { path: 'log.txt', line: 'second' } },
              { id: 'p3', name: 'probe', args: { name: 'p3', together: 1 } },
            ],
          },
          { text: ['Done.'] },
        ],
      },
    });
    rig.session.send('Probe and write');
    await rig.session.idle();

    const results = conversationOf(rig.server.requests[1]!.body).filter((entry) => entry.kind === 'tool');
    expect(results).toEqual([
      { kind: 'tool', id: 'p1', content: 'p1 ran together' },
      { kind: 'tool', id: 'p2', content: 'p2 ran together' },
      { kind: 'tool', id: 'w1', content: 'appended first' },
      { kind: 'tool', id: 'w2', content: 'appended second' },
      { kind: 'tool', id: 'p3', content: 'p3 ran together' },
    ]);
    const order = rig.kit.order;
    expect(order.slice(4)).toEqual(['write first', 'write second', 'start p3', 'end p3']);
    expect(await readFile(path.join(rig.workspace, 'log.txt'), 'utf8')).toBe('first\nsecond\n');
  });

  it('gives a reused call id a unique one, so cards and stored results never collide', async () => {
    rig = await startRig('openai', {
      script: {
        steps: [
          { tool_calls: [{ id: 'same', name: 'probe', args: { name: 'a', together: 1 } }] },
          { tool_calls: [{ id: 'same', name: 'probe', args: { name: 'b', together: 1 } }] },
          { text: ['ok'] },
        ],
      },
    });
    rig.session.send('Probe twice');
    await rig.session.idle();
    expect(rig.recorder.ofType('tool_completed').map((event) => event.call_id)).toEqual(['same', 'same-2']);
    expect(rig.session.toolContent('same-2')).toMatchObject({ ok: true, value: { content: 'b ran together' } });
  });
});

describe('permissions', () => {
  it('headless, refuses a write with the flag that allows it, and the tool never runs', async () => {
    rig = await startRig('anthropic', {
      gate: headlessGate(),
      script: {
        steps: [
          { tool_calls: [{ id: 'w', name: 'append_line', args: { path: 'x.txt', line: 'no' } }] },
          { text: ['I could not write.'] },
        ],
      },
    });
    rig.session.send('Write x.txt');
    await rig.session.idle();

    const completed = rig.recorder.ofType('tool_completed')[0] as ToolCompletedEvent;
    expect(completed.is_error).toBe(true);
    const content = rig.session.toolContent('w');
    expect(content.ok && content.value.content).toMatch(/--allow write.*--permission-mode auto/);
    await expect(access(path.join(rig.workspace, 'x.txt'))).rejects.toThrow();
    expect(rig.kit.order).toEqual([]);
    expect(conversationOf(rig.server.requests[1]!.body).at(-1)).toMatchObject({
      kind: 'tool',
      content: expect.stringMatching(/--allow write/),
    });
  });

  it('asks the panel and runs the call once it is approved', async () => {
    rig = await startRig('anthropic', {
      rules: DEFAULT_RULES,
      script: {
        steps: [
          { tool_calls: [{ id: 'w', name: 'append_line', args: { path: 'x.txt', line: 'yes' } }] },
          { text: ['Written.'] },
        ],
      },
    });
    rig.session.send('Write x.txt');
    await waitForEvent(rig.recorder, (event) => event.type === 'tool_approval_requested');
    expect(rig.session.approve('w', 'once')).toEqual({ ok: true, value: undefined });
    await rig.session.idle();

    expect(await readFile(path.join(rig.workspace, 'x.txt'), 'utf8')).toBe('yes\n');
    expect(rig.recorder.ofType('tool_approval_resolved')).toMatchObject([{ call_id: 'w', answer: 'once' }]);
    const written = (await sessionLines(rig.session.file)).map(
      (line) => (line['event'] as { type?: string } | undefined)?.type,
    );
    expect(written).toContain('tool_approval_requested');
    expect(written).toContain('tool_approval_resolved');
  });

  it('says so when nothing waits for an answer, in words that name no internal id', async () => {
    rig = await startRig('anthropic', { script: { steps: [] } });
    expect(rig.session.approve('call_nope', 'once')).toEqual({
      ok: false,
      error: 'No question is waiting for this call any more; it may have been answered or stopped already.',
    });
    expect(rig.session.toolContent('call_nope')).toEqual({
      ok: false,
      error: 'No result is recorded for this call in the open session: open its session again to see it.',
    });
    expect(rig.session.cancelCall('call_nope')).toEqual({
      ok: false,
      error: 'This call is not running any more; it may have finished already.',
    });
    expect(rig.session.send('   ')).toMatchObject({ ok: false });
  });
});
