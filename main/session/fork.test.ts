import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { StatusRecorder } from '../status/sink.ts';
import { listSessions } from './catalog.ts';
import { ForkError, forkSession } from './fork.ts';
import { readSessionFile } from './replay.ts';
import { SessionLog, sessionFileOf } from './session-log.ts';
import { SessionSink } from './session-sink.ts';

// Conversation rewind on a real sessions folder: a session of two turns (the second with a call)
// is forked before its second turn, from the turn and from the call; the fork replays, resumes and
// names its parent, and the original is left byte for byte as it was.

let root: string;
let original: string;

const turn = (turnId: string, text: string, callId?: string): StatusEvent[] => [
  { type: 'turn_started', turn_id: turnId, model: 'demo' },
  { type: 'user_message', turn_id: turnId, text },
  {
    type: 'assistant_message',
    turn_id: turnId,
    text: callId ? '' : `answer to ${text}`,
    tool_calls: callId ? [{ call_id: callId, name: 'write_file', args: { path: 'a.txt', content: 'x' } }] : [],
  },
  ...(callId
    ? ([
        { type: 'tool_started', call_id: callId, name: 'write_file', kind: 'write', title: 'Write a.txt' },
        { type: 'tool_completed', call_id: callId, name: 'write_file', execution_time: 1, is_error: false },
      ] as StatusEvent[])
    : []),
  { type: 'turn_completed', turn_id: turnId, stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } },
];

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-fork-'));
  const log = await SessionLog.create({ root, workspace: '/ws', model: 'demo' });
  original = log.id;
  const sink = new SessionSink(log, new StatusRecorder());
  for (const event of [...turn('t1', 'First question'), ...turn('t2', 'Write the file please', 'call-9')])
    await sink.emit(event);
  await log.put({ call_id: 'call-9', name: 'write_file', content: 'Wrote a.txt', is_error: false });
  await log.close();
  await mkdir(path.join(log.dir, 'checkpoints', 'list'), { recursive: true });
  await writeFile(path.join(log.dir, 'checkpoints', 'list', '000001-cp-1.json'), '{"id":"cp-1"}');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('forks before a turn: the fork has the turns before it, names its parent, and hands back the message', async () => {
  const before = await readFile(sessionFileOf(root, original));
  const fork = await forkSession(root, original, { turnId: 't2' });
  expect(fork.message).toBe('Write the file please');
  expect(fork.header.parent).toEqual({ session: original, turn_id: 't2', message: 2 });

  const replay = await readSessionFile(sessionFileOf(root, fork.id));
  expect(replay.header).toMatchObject({ id: fork.id, workspace: '/ws', parent: { session: original } });
  expect(replay.events.map((event) => event.type)).toEqual([
    'turn_started',
    'user_message',
    'assistant_message',
    'turn_completed',
  ]);
  expect(replay.repairs).toEqual([]);
  expect(replay.context.map((message) => message.role)).toEqual(['user', 'assistant']);
  expect(await readFile(sessionFileOf(root, original))).toEqual(before);

  const listed = await listSessions(root);
  expect(listed.map((entry) => entry.id).sort()).toEqual([original, fork.id].sort());
  expect(listed.find((entry) => entry.id === fork.id)?.parent).toEqual({
    session: original,
    turn_id: 't2',
    message: 2,
  });
  // Named as a fork of the original, so the two never look alike in a list.
  expect(listed.find((entry) => entry.id === fork.id)?.title).toBe('↳ First question');
  expect(listed.find((entry) => entry.id === original)?.title).toBe('First question');
});

it('forks from a call before the turn that holds it, with the checkpoints, and the fork goes on durably', async () => {
  const fork = await forkSession(root, original, { callId: 'call-9' });
  expect(fork).toMatchObject({
    turnId: 't2',
    message: 'Write the file please',
    header: { parent: { call_id: 'call-9' } },
  });
  const { log } = await SessionLog.resume(root, fork.id);
  await new SessionSink(log, new StatusRecorder()).emit({ type: 'user_message', turn_id: 't3', text: 'Edited' });
  await log.close();
  const replay = await readSessionFile(sessionFileOf(root, fork.id));
  expect(replay.events.filter((event) => event.type === 'user_message').map((event) => event.text)).toEqual([
    'First question',
    'Edited',
  ]);
  expect(await readFile(path.join(log.dir, 'checkpoints', 'list', '000001-cp-1.json'), 'utf8')).toBe('{"id":"cp-1"}');
  expect((await stat(path.join(log.dir, 'checkpoints', 'list', '000001-cp-1.json'))).nlink).toBe(2);
});

it('takes along the binary resources of MCP results, so the fork’s cards can still save them', async () => {
  const blob = path.join(root, original, 'blobs', 'ab'.repeat(32));
  await mkdir(path.dirname(blob), { recursive: true });
  await writeFile(blob, 'resource bytes');
  const fork = await forkSession(root, original, { turnId: 't2' });
  const forked = path.join(root, fork.id, 'blobs', 'ab'.repeat(32));
  expect(await readFile(forked, 'utf8')).toBe('resource bytes');
  expect((await stat(forked)).nlink).toBe(2);
});

it('forks before the first turn into an empty conversation', async () => {
  const fork = await forkSession(root, original, { turnId: 't1' });
  expect(fork.message).toBe('First question');
  expect((await readSessionFile(sessionFileOf(root, fork.id))).events).toEqual([]);
});

it('refuses a call or turn the session does not have, and says what to give', async () => {
  await expect(forkSession(root, original, { callId: 'nope' })).rejects.toThrow(ForkError);
  await expect(forkSession(root, original, { callId: 'nope' })).rejects.toThrow(/has no call nope: give a call id/);
  await expect(forkSession(root, original, { turnId: 't9' })).rejects.toThrow(/has no turn t9/);
  await expect(forkSession(root, 'missing-1', { turnId: 't1' })).rejects.toThrow(/No session missing-1/);
  expect((await listSessions(root)).length).toBe(1);
});
