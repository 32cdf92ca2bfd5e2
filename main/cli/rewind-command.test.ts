import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { listSessions } from '../session/catalog.ts';
import { SessionLog } from '../session/session-log.ts';
import { SessionSink } from '../session/session-sink.ts';
import { StatusRecorder } from '../status/sink.ts';
import { CheckpointStore } from '../tools/checkpoints/checkpoint-store.ts';
import { aether } from '../../test/aether-cli.ts';

// `aether rewind` as a person runs it: the real CLI in a child process, on a session whose
// checkpoint was taken before a call, and a workspace changed since.

let root: string;
let workspace: string;
let sessions: string;
let sessionId: string;

beforeEach(async () => {
  ({ root, workspace, sessionsRoot: sessions } = await makeTempWorkspace('aether-rewind-cli-'));
  await writeFile(path.join(workspace, 'a.txt'), 'old\n');
  const log = await SessionLog.create({ root: sessions, workspace, model: 'demo' });
  sessionId = log.id;
  const store = await CheckpointStore.open(path.join(log.dir, 'checkpoints'), workspace);
  await store.record('before write_file', 'call-1');
  await log.close();
  await writeFile(path.join(workspace, 'a.txt'), 'new\n');
  await writeFile(path.join(workspace, 'b.txt'), 'created\n');
}, 30_000);

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (name: string): Promise<string> => readFile(path.join(workspace, name), 'utf8').catch(() => '(none)');

it('prints what a rewind would change and changes nothing with --dry-run', async () => {
  const ran = await aether(['rewind', sessionId, 'call-1', '--dry-run', '--sessions', sessions]);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  expect(ran.stdout).toMatch(/before call call-1/);
  expect(ran.stdout).toContain('  remove   b.txt');
  expect(ran.stdout).toContain('  restore  a.txt');
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['new\n', 'created\n']);
}, 60_000);

it('rewinds the code to before the call, and the printed undo brings the changes back', async () => {
  // No record after the call here: its changes count as conflicts, taken all at once.
  const ran = await aether(['rewind', sessionId, 'call-1', '--conflicts', 'take', '--sessions', sessions]);
  expect(ran.code).toBe(0);
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['old\n', '(none)']);
  const undo = /Undo with: aether rewind \S+ (cp-[0-9a-f]+)/.exec(ran.stdout)?.[1] ?? '';
  const undone = await aether(['rewind', sessionId, undo, '--sessions', sessions]);
  expect(undone.code).toBe(0);
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['new\n', 'created\n']);
}, 60_000);

it('lists files the person changed since as conflicts, rewinds none without a choice, and keeps them with --conflicts keep', async () => {
  const store = await CheckpointStore.open(path.join(sessions, sessionId, 'checkpoints'), workspace);
  const [before] = store.list();
  // What the agent changed is recorded after its call; the person's c.txt comes later.
  await store.recordAfter(before?.id ?? '', 'after write_file');
  await writeFile(path.join(workspace, 'a.txt'), 'person edit\n');
  await writeFile(path.join(workspace, 'c.txt'), 'mine\n');

  const dry = await aether(['rewind', sessionId, 'call-1', '--dry-run', '--sessions', sessions]);
  expect(dry.stdout).toContain('Changed since by someone other than the agent (conflicts):');
  expect(dry.stdout).toContain('  a.txt (the rewind would restore it)');
  expect(dry.stdout).toContain('  c.txt (the rewind would remove it)');

  const refused = await aether(['rewind', sessionId, 'call-1', '--sessions', sessions]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    '2 file(s) were changed since the checkpoint by someone other than the agent; nothing was rewound.',
  );
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['person edit\n', 'created\n']);

  const kept = await aether(['rewind', sessionId, 'call-1', '--conflicts', 'keep', '--sessions', sessions]);
  expect(kept.code).toBe(0);
  expect(kept.stdout).toContain('Kept as you left them: a.txt, c.txt.');
  expect([await read('a.txt'), await read('b.txt'), await read('c.txt')]).toEqual([
    'person edit\n',
    '(none)',
    'mine\n',
  ]);
}, 60_000);

it('rewinds the conversation into a fork that names the message, and refuses a target it does not have', async () => {
  const log = await SessionLog.resume(sessions, sessionId).then(({ log: opened }) => opened);
  const sink = new SessionSink(log, new StatusRecorder());
  await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'demo' });
  await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Make b.txt' });
  await sink.emit({
    type: 'assistant_message',
    turn_id: 't1',
    text: '',
    tool_calls: [{ call_id: 'call-1', name: 'write_file', args: {} }],
  });
  await log.close();
  const ran = await aether(['rewind', sessionId, 'call-1', '--conversation', '--sessions', sessions]);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  expect(ran.stdout).toContain('  Make b.txt');
  const fork = /forked as session (\S+)/.exec(ran.stdout)?.[1] ?? '';
  expect((await listSessions(sessions)).find((entry) => entry.id === fork)?.parent).toMatchObject({
    session: sessionId,
  });
  // The code was not touched.
  expect(await read('b.txt')).toBe('created\n');

  const missing = await aether(['rewind', sessionId, 'call-x', '--conversation', '--sessions', sessions]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('has no call or message call-x');
  const both = await aether(['rewind', sessionId, 'call-1', '--code', '--both', '--sessions', sessions]);
  expect(both.code).toBe(2);
}, 60_000);
