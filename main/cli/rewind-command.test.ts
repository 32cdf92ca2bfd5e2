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

it('without a target lists the turns and the calls that could change the workspace: id, tool, path and time', async () => {
  const log = await SessionLog.resume(sessions, sessionId).then(({ log: opened }) => opened);
  const sink = new SessionSink(log, new StatusRecorder());
  await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Make b.txt\nfrom a.txt' });
  await sink.emit({
    type: 'assistant_message',
    turn_id: 't1',
    text: '',
    tool_calls: [
      { call_id: 'call-0', name: 'read_file', args: { path: 'a.txt' } },
      { call_id: 'call-1', name: 'write_file', args: { path: 'b.txt', content: 'created\n' } },
    ],
  });
  const reading = { title: 'Read a.txt', subtitle: 'a.txt', path: 'a.txt' };
  await sink.emit({ type: 'tool_started', call_id: 'call-0', name: 'read_file', args: {}, description: reading });
  await sink.emit({
    type: 'tool_completed',
    call_id: 'call-0',
    name: 'read_file',
    execution_time: 1,
    is_error: false,
    result: { kind: 'text', text: 'old' },
  });
  const write = { title: 'Create b.txt', subtitle: 'b.txt', path: 'b.txt' };
  await sink.emit({ type: 'tool_started', call_id: 'call-1', name: 'write_file', args: {}, description: write });
  await sink.emit({
    type: 'tool_completed',
    call_id: 'call-1',
    name: 'write_file',
    execution_time: 1,
    is_error: false,
    result: { kind: 'write', path: 'b.txt', created: true, bytes: 8 },
    checkpoint: { id: 'cp-1' },
  });
  await sink.emit({ type: 'user_message', turn_id: 't2', text: 'Only look' });
  await log.close();

  const ran = await aether(['rewind', sessionId, '--sessions', sessions]);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  const lines = ran.stdout.split('\n');
  expect(lines).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}turn t1 {2}“Make b\.txt”$/));
  expect(lines).toContainEqual(expect.stringMatching(/^ {2}✓ call-1 {2}write_file {2}b\.txt {2}\d\d:\d\d:\d\d$/));
  expect(ran.stdout).not.toContain('call-0');
  expect(lines).toContainEqual(expect.stringMatching(/turn t2 {2}“Only look”$/));
  expect(ran.stdout).toContain('  no call of this turn could change the workspace');
  expect(ran.stdout).toContain(`aether rewind ${sessionId} CALL_ID [--dry-run] --sessions ${sessions}`);
  expect(ran.stdout).toContain(`aether rewind ${sessionId} TURN_ID --conversation --sessions ${sessions}`);
  // Nothing was rewound.
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['new\n', 'created\n']);

  const unknown = await aether(['rewind', '20260101-000000-aaaaaa', '--sessions', sessions]);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain(`aether sessions --sessions ${sessions} lists the sessions there`);
  const none = await aether(['rewind']);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('Give a session id (aether sessions lists them)');
}, 60_000);

it('takes the call id that ends a line of aether run, and lists it among the calls to choose from', async () => {
  const ran = await aether([
    'run',
    '--workspace',
    workspace,
    '--sessions',
    sessions,
    '--model',
    'demo',
    '--allow',
    'write',
    'Show me what you can do',
  ]);
  expect(ran.code).toBe(0);
  const created = /^✓ Create (AETHER_DEMO\S*\.md) .* \[(\S+)\]$/m.exec(ran.stdout);
  expect(created).not.toBeNull();
  const [, note = '', callId = ''] = created ?? [];
  const session = /Resume: aether run --resume (\S+)/.exec(ran.stdout)?.[1] ?? '';

  const listed = await aether(['rewind', session, '--sessions', sessions]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(new RegExp(`✓ ${callId} +write_file +${note.replace('.', '\\.')} `));

  const dry = await aether(['rewind', session, callId, '--dry-run', '--sessions', sessions]);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain(`  remove   ${note}`);
}, 90_000);
