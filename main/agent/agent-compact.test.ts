import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readSessionFile } from '../session/replay.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { modelFor, startRig, ToolKit, type Rig } from '../../test/agent-kit.ts';
import { AgentSession } from './agent-session.ts';
import { contextBudget } from './context-budget.ts';

// Compaction by hand through the session: refused while a turn runs (nothing is asked of the
// model), and a message sent while it compacts starts its turn once it is done, from the summary.

const rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) await rig.close();
});

it('refuses to compact while a turn runs, without asking the model anything', async () => {
  const rig = await startRig('anthropic', {
    script: { steps: [{ tool_calls: [{ id: 'h1', name: 'hold', args: { name: 'long' } }] }, { text: ['Done.'] }] },
  });
  rigs.push(rig);
  rig.session.send('Hold on.');
  await rig.kit.running('long');
  const result = await rig.session.compact();
  expect(result).toEqual({ ok: false, error: 'A turn is running. Compact once it has finished, or stop it first.' });
  rig.kit.release('long');
  await rig.session.idle();
  expect(rig.server.requests).toHaveLength(2);
  expect(rig.recorder.events.some((event) => event.type.startsWith('compaction'))).toBe(false);
});

it('delivers a message sent during a compaction by hand after it, from the summary, and keeps the card durable', async () => {
  const rig = await startRig('anthropic', {
    script: {
      steps: [
        { text: ['Reading.'], tool_calls: [{ id: 'r1', name: 'read_note', args: { path: 'a.txt' } }] },
        { text: ['It says alpha.'] },
        { text: ['## Goal and open tasks\nKnow what a.txt says.'], chunk_delay_ms: 30 },
        { text: ['Yes, alpha.'] },
      ],
    },
  });
  rigs.push(rig);
  await writeFile(path.join(rig.workspace, 'a.txt'), 'alpha\n');
  rig.session.send('What is in a.txt?');
  await rig.session.idle();

  const compaction = rig.session.compact('what a.txt says');
  const queued = rig.session.send('Still alpha?');
  expect(queued).toMatchObject({ ok: true, value: { queued: true } });
  const result = await compaction;
  expect(result).toMatchObject({
    ok: true,
    value: { type: 'compaction', trigger: 'manual', focus: 'what a.txt says' },
  });
  await rig.session.idle();

  const last = JSON.stringify(rig.server.requests.at(-1)?.body['messages']);
  expect(last).toContain('Know what a.txt says.');
  expect(last).toContain('Still alpha?');
  expect(JSON.stringify(rig.server.requests[2]?.body)).toContain('what a.txt says');
  const replay = await readSessionFile(rig.session.file);
  expect(replay.events.filter((event) => event.type === 'compaction')).toHaveLength(1);
  expect(replay.context).toEqual(rig.session.context());
});

it('compacts with a notice when the newly picked model has a smaller window than the context, and not before', async () => {
  const rig = await startRig('anthropic', { script: { steps: [] } });
  rigs.push(rig);
  await writeFile(path.join(rig.workspace, 'big.txt'), `${'many words in a file '.repeat(400)}\n`);
  const recorder = new StatusRecorder();
  const session = await AgentSession.start({
    root: rig.root,
    workspace: rig.workspace,
    model: modelFor('anthropic', rig.server),
    sink: recorder,
    tools: new ToolKit().tools,
    rules: ALLOW_ALL,
    // The Anthropic fixture model has room; the OpenAI one has a window smaller than the context.
    budget: contextBudget({ window: (id) => (id.startsWith('openai:') ? 1000 : 200_000) }),
  });
  rig.server.load({
    steps: [
      { text: ['Reading.'], tool_calls: [{ id: 'r1', name: 'read_note', args: { path: 'big.txt' } }] },
      { text: ['A big file.'] },
      { text: ['## Goal and open tasks\nKnow what big.txt holds.'] },
      { text: ['Still a big file.'] },
    ],
  });
  session.send('What is in big.txt?');
  await session.idle();
  session.setModel(modelFor('openai', rig.server));
  expect(recorder.events.some((event) => event.type === 'compaction')).toBe(false);

  session.send('And now?');
  await session.idle();
  await session.close();
  const compaction = recorder.events.find((event) => event.type === 'compaction');
  expect(compaction).toMatchObject({ trigger: 'window', model: 'openai:gpt-fixture' });
  expect(compaction?.type === 'compaction' && compaction.notice).toContain('1000-token window of openai:gpt-fixture');
  expect(JSON.stringify(rig.server.requests.at(-1)?.body)).not.toContain('many words in a file');
});
