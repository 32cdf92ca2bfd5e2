import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { AgentSession } from '../agent/agent-session.ts';
import { listSessions } from '../session/catalog.ts';
import { readSessionFile } from '../session/replay.ts';
import { sessionFileOf } from '../session/session-log.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { modelFor, startRig, type Rig } from '../../test/agent-kit.ts';
import { applyRewind, previewRewind } from './rewind-panel.ts';

// Rewinding both from the panel, over the fixture model and a real workspace: the code goes back,
// the conversation is forked, and the fork is where the person goes on — so it is named as a fork
// of the original, says which message it goes back before, and holds the code rewind's card with
// its undo; the original is left as it was.

const sessions: AgentSession[] = [];
let rig: Rig | undefined;

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await rig?.close();
  rig = undefined;
});

it('rewinding both puts the code rewind and its undo in the fork, which is named and numbered as a fork', async () => {
  rig = await startRig('anthropic', {
    script: {
      steps: [
        { text: ['Hello.'] },
        { tool_calls: [{ id: 'call_add', name: 'append_line', args: { path: 'notes.txt', line: 'two' } }] },
        { text: ['Added.'] },
      ],
    },
  });
  await writeFile(path.join(rig.workspace, 'notes.txt'), 'one\n');
  rig.session.send('Plan the notes');
  await rig.session.idle();
  rig.session.send('Add a line');
  await rig.session.idle();
  const notes = path.join(rig.workspace, 'notes.txt');
  expect(await readFile(notes, 'utf8')).toBe('one\ntwo\n');
  const original = await readFile(rig.session.file);

  const done = await applyRewind(rig.session, rig.root, {
    target: 'call_add',
    mode: 'both',
    what: 'append_line notes.txt',
  });
  expect(done).toMatchObject({ mode: 'both', message: 'Add a line', restored: ['notes.txt'] });
  expect(await readFile(notes, 'utf8')).toBe('one\n');
  // The original is untouched: no card there for a rewind the person went on from elsewhere.
  expect(await readFile(rig.session.file)).toEqual(original);

  const forkId = done.fork ?? '';
  const fork = await readSessionFile(sessionFileOf(rig.root, forkId));
  expect(fork.header.parent).toMatchObject({ session: rig.session.id, message: 2 });
  expect(fork.events.at(-1)).toMatchObject({ type: 'code_rewound', undo: done.undo, what: 'append_line notes.txt' });
  const listed = await listSessions(rig.root);
  expect(listed.find((summary) => summary.id === forkId)?.title).toBe('↳ Plan the notes');
  expect(listed.find((summary) => summary.id === rig?.session.id)?.title).toBe('Plan the notes');

  // Opened as the panel opens it, the fork's card undoes the rewind.
  const resumed = await AgentSession.resume({
    root: rig.root,
    id: forkId,
    workspace: rig.workspace,
    model: modelFor('anthropic', rig.server),
    sink: new StatusRecorder(),
    tools: rig.kit.tools,
    rules: ALLOW_ALL,
  });
  sessions.push(resumed);
  expect(resumed.summary()).toMatchObject({ parent: { session: rig.session.id, message: 2 } });
  const undo = { target: done.undo ?? '', mode: 'code' as const, what: 'the rewind' };
  expect(await previewRewind(resumed, undo)).toMatchObject({ restore: ['notes.txt'], conflicts: [] });
  await applyRewind(resumed, rig.root, undo);
  expect(await readFile(notes, 'utf8')).toBe('one\ntwo\n');
});
