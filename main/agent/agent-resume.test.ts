import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { interruptedContent } from '../session/context.ts';
import { readSessionFile } from '../session/replay.ts';
import { SessionLog } from '../session/session-log.ts';
import { SessionSink } from '../session/session-sink.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { conversationOf, modelFor, ToolKit } from '../../test/agent-kit.ts';
import { writeBigSession } from '../../test/big-session.ts';

// A session reopened from its file gives the model exactly the context it had, closes what a
// crash left open, and never runs an interrupted call again.

let workspace: string;
let root: string;
const servers: FixtureServer[] = [];
const sessions: AgentSession[] = [];

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ws-')));
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-sessions-'));
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const server of servers.splice(0)) await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function server(script: FixtureScriptInput): Promise<FixtureServer> {
  const started = await startFixtureServer({ script });
  servers.push(started);
  return started;
}

async function open(
  how: 'start' | 'resume',
  fixture: FixtureServer,
  kit: ToolKit,
  id = '',
): Promise<{ session: AgentSession; recorder: StatusRecorder }> {
  const recorder = new StatusRecorder();
  const options = {
    root,
    workspace,
    model: modelFor('anthropic', fixture),
    sink: recorder,
    tools: kit.tools,
    rules: ALLOW_ALL,
  };
  const session = how === 'start' ? await AgentSession.start(options) : await AgentSession.resume({ ...options, id });
  sessions.push(session);
  return { session, recorder };
}

describe('AgentSession.resume', () => {
  it('sends the model the same context it had before the session was closed', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'alpha\n');
    const first = await server({
      steps: [
        { text: ['Reading.'], tool_calls: [{ id: 'r1', name: 'read_note', args: { path: 'a.txt' } }] },
        { text: ['It says alpha.'] },
      ],
    });
    const kit = new ToolKit();
    const { session } = await open('start', first, kit);
    session.send('What is in a.txt?');
    await session.idle();
    const before = session.context();
    await session.close();

    expect((await readSessionFile(session.file)).context).toEqual(before);
    const second = await server({ steps: [{ text: ['Still alpha.'] }] });
    const { session: again } = await open('resume', second, kit, session.id);
    again.send('And now?');
    await again.idle();

    expect(conversationOf(second.requests[0]!.body)).toEqual([
      { kind: 'user', text: 'What is in a.txt?' },
      { kind: 'assistant', text: 'Reading.', calls: ['r1'] },
      { kind: 'tool', id: 'r1', content: 'alpha\n' },
      { kind: 'assistant', text: 'It says alpha.', calls: [] },
      { kind: 'user', text: 'And now?' },
    ]);
    expect(again.summary()).toMatchObject({ id: session.id, title: 'What is in a.txt?', workspace });
  });

  it('gives a call left without a result an interrupted result, for the card and the model, and never runs it again', async () => {
    const log = await SessionLog.create({ root, workspace, model: 'anthropic:claude-fixture', id: 'crashed' });
    const sink = new SessionSink(log, new StatusRecorder());
    await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Append a line' });
    await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'anthropic:claude-fixture' });
    await sink.emit({
      type: 'assistant_message',
      turn_id: 't1',
      text: '',
      tool_calls: [{ call_id: 'w1', name: 'append_line', args: { path: 'x.txt', line: 'once' } }],
    });
    await sink.emit({
      type: 'tool_started',
      call_id: 'w1',
      name: 'append_line',
      args: { path: 'x.txt', line: 'once' },
      turn_id: 't1',
    });
    await log.close();

    const fixture = await server({ steps: [{ text: ['I will check x.txt first.'] }] });
    const kit = new ToolKit();
    const { session, recorder } = await open('resume', fixture, kit, 'crashed');
    expect(session.reopened?.events.slice(-2)).toMatchObject([
      { type: 'tool_completed', call_id: 'w1', is_error: true },
      { type: 'turn_failed', turn_id: 't1' },
    ]);
    session.send('Did it work?');
    await session.idle();

    expect(conversationOf(fixture.requests[0]!.body)).toEqual([
      { kind: 'user', text: 'Append a line' },
      { kind: 'assistant', text: '', calls: ['w1'] },
      { kind: 'tool', id: 'w1', content: interruptedContent('append_line') },
      { kind: 'user', text: 'Did it work?' },
    ]);
    expect(kit.order).toEqual([]);
    expect(recorder.ofType('tool_started')).toEqual([]);
    expect(session.toolContent('w1')).toMatchObject({
      ok: true,
      value: { content: interruptedContent('append_line'), is_error: true },
    });
    const replay = await readSessionFile(session.file);
    expect(replay.repairs).toEqual([]);
    expect(replay.events.filter((event) => event.type === 'turn_failed')).toHaveLength(1);
  });

  it('keeps only the newest page of a long session it reopened, and the model context whole', async () => {
    await writeBigSession({ root, id: 'long', workspace, calls: 600 });
    const fixture = await server({ steps: [{ text: ['done'] }] });
    const { session } = await open('resume', fixture, new ToolKit(), 'long');
    const whole = await readSessionFile(session.file);
    const older = session.reopened?.older ?? 0;
    expect(older).toBeGreaterThan(0);
    expect(session.reopened?.events).toEqual(whole.events.slice(older));
    expect(session.context()).toHaveLength(whole.context.length);
  });

  it('replays past a corrupt line in the middle and counts it', async () => {
    const fixture = await server({ steps: [{ text: ['one'] }, { text: ['two'] }, { text: ['three'] }] });
    const kit = new ToolKit();
    const { session } = await open('start', fixture, kit);
    session.send('first');
    await session.idle();
    session.send('second');
    await session.idle();
    await session.close();

    const rows = (await readFile(session.file, 'utf8')).split('\n');
    rows[3] = '{"kind":"event","event":{"type":"assistant_mess';
    await writeFile(session.file, rows.join('\n'));
    const { session: again } = await open('resume', fixture, kit, session.id);
    expect(again.reopened?.corrupt_lines).toBe(1);
    again.send('third');
    await again.idle();
    const users = conversationOf(fixture.requests[2]!.body).filter((entry) => entry.kind === 'user');
    expect(users.map((entry) => entry.kind === 'user' && entry.text)).toEqual(['first', 'second', 'third']);
  });
});
