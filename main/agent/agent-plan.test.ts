import { rm } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import { readSessionFile } from '../session/replay.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { conversationOf, copiedSession, modelFor, startRig, type Rig } from '../../test/agent-kit.ts';

// A plan proposed ends its turn; approved, it is a durable context note the model gets with the
// start of the work, and again, verbatim, after a compaction.

let rig: Rig | undefined;
const roots: string[] = [];

afterEach(async () => {
  await rig?.close();
  rig = undefined;
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

const PLAN = '# Fix the parser\n1. Read parser.ts\n2. Fix the off-by-one';
const TODOS = [
  { id: 'read', text: 'Read parser.ts', status: 'pending' as const },
  { id: 'fix', text: 'Fix the off-by-one', status: 'pending' as const },
];
const NOTE =
  'The person approved this plan. Carry it out, keeping the todo list current with todo_write.\n' +
  `<plan>\n${PLAN}\n</plan>\n<todos>\n[ ] read: Read parser.ts\n[ ] fix: Fix the off-by-one\n</todos>`;

it('ends the turn at plan_propose, and an approval starts the work with the plan as a context note kept through compaction', async () => {
  rig = await startRig('anthropic', {
    script: {
      steps: [
        {
          text: ['Here is my plan.'],
          tool_calls: [{ id: 'p1', name: 'plan_propose', args: { plan: PLAN, todos: TODOS } }],
        },
        { text: ['Starting.'] },
        { text: ['<summary>Planned, started.</summary>'] },
        { text: ['Still on it.'] },
      ],
    },
  });
  rig.session.send('Plan the parser fix');
  const planned = await rig.session.idle();

  expect(planned).toMatchObject({ status: 'completed', stopReason: 'plan_proposed' });
  expect(rig.server.requests).toHaveLength(1);
  expect(rig.recorder.ofType('tool_completed')[0]).toMatchObject({
    name: 'plan_propose',
    result: { kind: 'plan', plan: PLAN, todos: TODOS },
  });

  expect(rig.session.approvePlan('p1', PLAN, TODOS)).toMatchObject({ ok: true });
  await rig.session.idle();
  expect(rig.session.todoList()).toEqual(TODOS);
  expect(conversationOf(rig.server.requests[1]!.body).slice(-3)).toEqual([
    { kind: 'tool', id: 'p1', content: 'Plan proposed to the person; the turn ends here. Wait for their answer.' },
    { kind: 'user', text: 'Approved: carry out the plan.' },
    { kind: 'user', text: NOTE },
  ]);
  expect(rig.recorder.ofType('context_note')).toMatchObject([{ about: 'plan', call_id: 'p1', text: NOTE }]);

  expect(await rig.session.compact()).toMatchObject({ ok: true });
  rig.session.send('Go on');
  await rig.session.idle();
  const after = conversationOf(rig.server.requests.at(-1)!.body);
  expect(after.filter((entry) => entry.kind === 'user' && entry.text === NOTE)).toHaveLength(1);
  expect((await readSessionFile(rig.session.file)).context).toEqual(rig.session.context());
});

it('keeps planning durably: a plan_kept event a resumed session shows, and nothing of it reaches the model', async () => {
  const propose = { id: 'p1', name: 'plan_propose', args: { plan: PLAN, todos: TODOS } };
  rig = await startRig('anthropic', {
    script: { steps: [{ text: ['Here is my plan.'], tool_calls: [propose] }, { text: ['Reading the lexer.'] }] },
  });
  rig.session.send('Plan the parser fix');
  await rig.session.idle();

  expect(await rig.session.keepPlanning('p1')).toEqual({ ok: true, value: undefined });
  expect(rig.recorder.ofType('plan_kept')).toMatchObject([{ call_id: 'p1' }]);
  const lines = (await readSessionFile(rig.session.file)).events.filter((event) => event.type === 'plan_kept');
  expect(lines).toMatchObject([{ call_id: 'p1' }]);
  // A call that proposed no plan is refused, and nothing is written.
  expect(await rig.session.keepPlanning('nope')).toMatchObject({ ok: false, error: expect.stringMatching(/No plan/) });
  expect(rig.recorder.ofType('plan_kept')).toHaveLength(1);

  rig.session.send('Look at the lexer too');
  await rig.session.idle();
  expect(conversationOf(rig.server.requests[1]!.body).slice(-2)).toEqual([
    { kind: 'tool', id: 'p1', content: 'Plan proposed to the person; the turn ends here. Wait for their answer.' },
    { kind: 'user', text: 'Look at the lexer too' },
  ]);

  // Reopened (a copy of the session's folder, as after a restart): the card's answer is there.
  const root = await copiedSession(rig, 'aether-plan-copy-');
  roots.push(root);
  const resumed = await AgentSession.resume({
    root,
    id: rig.session.id,
    workspace: rig.workspace,
    model: modelFor('anthropic', rig.server),
    sink: new StatusRecorder(),
    tools: rig.kit.tools,
    rules: ALLOW_ALL,
  });
  try {
    expect(resumed.reopened?.events.filter((event) => event.type === 'plan_kept')).toMatchObject([{ call_id: 'p1' }]);
    expect(resumed.context()).toEqual(rig.session.context());
  } finally {
    await resumed.close();
  }
});

it('refuses Keep planning on a plan already approved', async () => {
  const propose = { id: 'p1', name: 'plan_propose', args: { plan: PLAN, todos: TODOS } };
  rig = await startRig('anthropic', {
    script: { steps: [{ tool_calls: [propose] }, { text: ['Starting.'] }] },
  });
  rig.session.send('Plan the parser fix');
  await rig.session.idle();
  expect(rig.session.approvePlan('p1', PLAN, TODOS)).toMatchObject({ ok: true });
  await rig.session.idle();
  expect(await rig.session.keepPlanning('p1')).toMatchObject({ ok: false, error: expect.stringMatching(/approved/) });
  expect(rig.recorder.ofType('plan_kept')).toHaveLength(0);
});
