import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL, DEFAULT_RULES } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { conversationOf, copiedSession, modelFor, startRig, waitForEvent, type Rig } from '../../test/agent-kit.ts';
import { readSessionFile } from '../session/replay.ts';

// Steering a running turn and queueing the next one, checked on what the fixture model received.

let rig: Rig | undefined;
const servers: FixtureServer[] = [];

const roots: string[] = [];

afterEach(async () => {
  await rig?.close();
  rig = undefined;
  for (const server of servers.splice(0)) await server.close();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

const THREE_CALLS = {
  text: ['Working.'],
  tool_calls: [
    { id: 'c1', name: 'read_note', args: { path: 'a.txt' } },
    { id: 'c2', name: 'hold', args: { name: 'h1' } },
    { id: 'c3', name: 'append_line', args: { path: 'out.txt', line: 'one' } },
  ],
};

const typesOf = (events: readonly StatusEvent[]) =>
  events.filter((event) => !['assistant_delta', 'context_estimate', 'step_usage'].includes(event.type));

describe('a steer', () => {
  it('arrives after the running calls of a three-call step and before the next model request', async () => {
    rig = await startRig('anthropic', { script: { steps: [THREE_CALLS, { text: ['Steered.'] }] } });
    await writeFile(path.join(rig.workspace, 'a.txt'), 'alpha\n');
    const first = rig.session.send('Do three things');
    await rig.kit.running('h1');
    const steer = rig.session.send('Also mind the tests');
    expect(rig.server.requests).toHaveLength(1);
    rig.kit.release('h1');
    const outcome = await rig.session.idle();

    expect(outcome?.status).toBe('completed');
    expect(steer).toMatchObject({ ok: true, value: { queued: true, turn_id: first.ok ? first.value.turn_id : '' } });
    expect(rig.server.requests).toHaveLength(2);
    expect(conversationOf(rig.server.requests[0]!.body)).toEqual([{ kind: 'user', text: 'Do three things' }]);
    expect(conversationOf(rig.server.requests[1]!.body)).toEqual([
      { kind: 'user', text: 'Do three things' },
      { kind: 'assistant', text: 'Working.', calls: ['c1', 'c2', 'c3'] },
      { kind: 'tool', id: 'c1', content: 'alpha\n' },
      { kind: 'tool', id: 'c2', content: 'released h1' },
      { kind: 'tool', id: 'c3', content: 'appended one' },
      { kind: 'user', text: 'Also mind the tests' },
    ]);
    // Recorded where it entered: after the three completions, in the same turn, marked as a steer.
    const events = typesOf(rig.recorder.events);
    const entered = events.findIndex((event) => event.type === 'user_message' && event.steer === true);
    const lastCompleted = events.findLastIndex((event) => event.type === 'tool_completed');
    expect(entered).toBeGreaterThan(lastCompleted);
    expect(events[entered]).toMatchObject({
      text: 'Also mind the tests',
      turn_id: first.ok ? first.value.turn_id : '',
    });
    expect(rig.recorder.ofType('turn_started')).toHaveLength(1);
  });

  it('waits while a call waits for approval, and follows its answer', async () => {
    rig = await startRig('openai', {
      rules: DEFAULT_RULES,
      script: { steps: [{ tool_calls: [{ id: 'w', name: 'append_line', args: { path: 'x', line: 'l' } }] }, {}] },
    });
    rig.session.send('Write it');
    const asked = await waitForEvent(rig.recorder, (event) => event.type === 'tool_approval_requested');
    rig.session.send('Use a different line');
    expect(rig.server.requests).toHaveLength(1);
    rig.session.approve(asked.type === 'tool_approval_requested' ? asked.call_id : '', 'once');
    await rig.session.idle();

    expect(conversationOf(rig.server.requests[1]!.body).slice(-2)).toEqual([
      { kind: 'tool', id: 'w', content: 'appended l' },
      { kind: 'user', text: 'Use a different line' },
    ]);
    const types = rig.recorder.events.map((event) => event.type);
    expect(types.indexOf('tool_approval_resolved')).toBeLessThan(types.lastIndexOf('user_message'));
  });

  it('sent just as the turn ends becomes the next turn, sent once', async () => {
    rig = await startRig('anthropic', { script: { steps: [{ text: ['First.'] }, { text: ['Second.'] }] } });
    const original = rig.recorder.emit.bind(rig.recorder);
    let late: ReturnType<AgentSession['send']> | null = null;
    rig.recorder.emit = (event) => {
      original(event);
      if (event.type === 'turn_completed' && late === null) late = rig!.session.send('One more thing');
    };
    rig.session.send('Answer');
    await rig.session.idle();

    expect(late).toMatchObject({ ok: true, value: { queued: true } });
    const turns = rig.recorder.ofType('turn_started').map((event) => event.turn_id);
    expect(turns).toHaveLength(2);
    expect(rig.recorder.ofType('user_message').map((event) => [event.turn_id, event.text])).toEqual([
      [turns[0], 'Answer'],
      [turns[1], 'One more thing'],
    ]);
    const sentTexts = rig.server.requests.flatMap((request) =>
      conversationOf(request.body).filter((entry) => entry.kind === 'user' && entry.text === 'One more thing'),
    );
    expect(rig.server.requests).toHaveLength(2);
    expect(sentTexts).toHaveLength(1);
  });

  it('leaves the model context byte for byte what a resumed session sends', async () => {
    const script = { steps: [THREE_CALLS, { text: ['Steered.'] }, { text: ['Going on.'] }] };
    // Live: the steered turn, then one more message in the same process.
    rig = await startRig('openai', { script });
    await writeFile(path.join(rig.workspace, 'a.txt'), 'alpha\n');
    rig.session.send('Do three things');
    await rig.kit.running('h1');
    rig.session.send('Also mind the tests');
    rig.kit.release('h1');
    await rig.session.idle();
    const steered = rig.session.context();
    expect((await readSessionFile(rig.session.file)).context).toEqual(steered);

    // The session as it stands, copied to another sessions folder and resumed from there.
    const root = await copiedSession(rig, 'aether-steer-copy-');
    roots.push(root);
    const server = await startFixtureServer({ script: { steps: [{ text: ['Going on.'] }] } });
    servers.push(server);
    const resumed = await AgentSession.resume({
      root,
      id: rig.session.id,
      workspace: rig.workspace,
      model: modelFor('openai', server),
      sink: new StatusRecorder(),
      tools: rig.kit.tools,
      rules: ALLOW_ALL,
    });
    rig.session.send('Go on');
    resumed.send('Go on');
    await Promise.all([rig.session.idle(), resumed.idle()]);
    await resumed.close();

    expect(conversationOf(server.requests[0]!.body).at(-1)).toEqual({ kind: 'user', text: 'Go on' });
    expect(JSON.stringify(server.requests[0]!.body)).toBe(JSON.stringify(rig.server.requests[2]!.body));
  });
});

describe('the queue', () => {
  it('runs a queued message as the next turn, not inside the running one', async () => {
    rig = await startRig('anthropic', {
      script: { steps: [{ tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h1' } }] }, { text: ['One.'] }, {}] },
    });
    rig.session.send('First');
    await rig.kit.running('h1');
    const queued = rig.session.send('Then second', undefined, undefined, { mode: 'queue' });
    expect(rig.session.queue().items).toEqual([
      { id: queued.ok ? queued.value.queued_id : '', text: 'Then second', mode: 'next' },
    ]);
    rig.kit.release('h1');
    await rig.session.idle();

    const turns = rig.recorder.ofType('turn_started').map((event) => event.turn_id);
    expect(turns).toHaveLength(2);
    expect(conversationOf(rig.server.requests[1]!.body).at(-1)).toEqual({
      kind: 'tool',
      id: 'h',
      content: 'released h1',
    });
    expect(conversationOf(rig.server.requests[2]!.body).slice(-2)).toEqual([
      { kind: 'assistant', text: 'One.', calls: [] },
      { kind: 'user', text: 'Then second' },
    ]);
    expect(rig.recorder.ofType('user_message')[1]).toMatchObject({
      turn_id: turns[1],
      queued_id: queued.ok ? queued.value.queued_id : '',
    });
    expect(rig.session.queue()).toEqual({ items: [], held: false });
  });

  it('sends waiting messages edited, reordered and without the removed one, one turn each', async () => {
    rig = await startRig('openai', {
      script: { steps: [{ tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h1' } }] }, {}, {}, {}] },
    });
    rig.session.send('Start');
    await rig.kit.running('h1');
    const ids = ['a', 'b', 'c'].map((text) => {
      const sent = rig!.session.send(text, undefined, undefined, { mode: 'queue' });
      return sent.ok ? (sent.value.queued_id ?? '') : '';
    });
    expect(rig.session.editQueued(ids[0]!, 'a, edited')).toEqual({ ok: true, value: undefined });
    expect(rig.session.editQueued(ids[0]!, '   ')).toMatchObject({ ok: false, error: /cannot be empty/ });
    expect(rig.session.removeQueued(ids[1]!)).toEqual({ ok: true, value: undefined });
    expect(rig.session.moveQueued(ids[2]!, 0)).toEqual({ ok: true, value: undefined });
    rig.kit.release('h1');
    await rig.session.idle();

    expect(rig.recorder.ofType('user_message').map((event) => event.text)).toEqual(['Start', 'c', 'a, edited']);
    expect(rig.session.editQueued(ids[0]!, 'too late')).toMatchObject({ ok: false, error: /not waiting any more/ });
    expect(rig.session.removeQueued(ids[1]!)).toMatchObject({ ok: false, error: /not waiting any more/ });
    // Replay of the written file folds to the same empty queue.
    const replay = await readSessionFile(rig.session.file);
    expect(replay.events.filter((event) => event.type === 'queue').length).toBeGreaterThan(0);
  });

  it('is kept by Stop, held, and goes out on Send now', async () => {
    rig = await startRig('anthropic', {
      script: { steps: [{ tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h1' } }] }, {}, {}, {}] },
    });
    rig.session.send('Start');
    await rig.kit.running('h1');
    rig.session.send('A steer that never entered');
    rig.session.send('Queued', undefined, undefined, { mode: 'queue' });
    await rig.session.stop();

    expect(rig.session.queue()).toMatchObject({
      held: true,
      items: [
        { text: 'A steer that never entered', mode: 'next' },
        { text: 'Queued', mode: 'next' },
      ],
    });
    expect(rig.server.requests).toHaveLength(1);
    // Another message while it is held waits behind it too.
    rig.session.send('Behind', undefined, undefined, { mode: 'queue' });
    expect(rig.session.queue().items).toHaveLength(3);

    expect(rig.session.sendQueued()).toEqual({ ok: true, value: undefined });
    await rig.session.idle();
    expect(rig.recorder.ofType('user_message').map((event) => event.text)).toEqual([
      'Start',
      'A steer that never entered',
      'Queued',
      'Behind',
    ]);
    expect(rig.session.sendQueued()).toMatchObject({ ok: false, error: 'No message is waiting.' });
  });

  it('takes 50 messages and runs each once, in order; refuses past its limit and an empty message', async () => {
    const steps = [
      { tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h1' } }] },
      ...Array.from({ length: 51 }, () => ({})),
    ];
    rig = await startRig('anthropic', { script: { steps } });
    rig.session.send('Start');
    await rig.kit.running('h1');
    const texts = Array.from({ length: 50 }, (_, index) => `message ${index + 1}`);
    for (const text of texts) rig.session.send(text, undefined, undefined, { mode: 'queue' });
    expect(rig.session.send('   ', undefined, undefined, { mode: 'queue' })).toMatchObject({
      ok: false,
      error: /empty/,
    });
    for (let index = 50; index < 100; index += 1)
      rig.session.send(`more ${index}`, undefined, undefined, { mode: 'queue' });
    expect(rig.session.send('one too many', undefined, undefined, { mode: 'queue' })).toMatchObject({
      ok: false,
      error: /100 messages are already waiting/,
    });
    for (const item of rig.session.queue().items.slice(50)) rig.session.removeQueued(item.id);
    await rig.session.queueSaved();
    rig.kit.release('h1');
    await rig.session.idle();

    expect(rig.recorder.ofType('user_message').map((event) => event.text)).toEqual(['Start', ...texts]);
    expect(rig.recorder.ofType('turn_started')).toHaveLength(51);
  });
});
