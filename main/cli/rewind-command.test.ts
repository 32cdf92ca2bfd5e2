import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { SessionLog } from '../session/session-log.ts';
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
  const ran = await aether(['rewind', sessionId, 'call-1', '--sessions', sessions]);
  expect(ran.code).toBe(0);
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['old\n', '(none)']);
  const undo = /Undo with: aether rewind \S+ (cp-[0-9a-f]+)/.exec(ran.stdout)?.[1] ?? '';
  const undone = await aether(['rewind', sessionId, undo, '--sessions', sessions]);
  expect(undone.code).toBe(0);
  expect([await read('a.txt'), await read('b.txt')]).toEqual(['new\n', 'created\n']);
}, 60_000);

it('refuses to rewind the conversation, which it cannot do yet, and says what it can', async () => {
  const ran = await aether(['rewind', sessionId, 'call-1', '--conversation', '--sessions', sessions]);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('Rewinding the conversation is not available yet: only --code (the default) is.');
}, 60_000);
