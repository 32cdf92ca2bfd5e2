import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { holdSession } from '../../test/session-holder.ts';
import { deleteSession } from './catalog.ts';
import { SessionLockedError } from './session-lock.ts';
import { SessionLog, sessionLockOf } from './session-log.ts';

// One writer per session, checked with real processes holding real lock files.

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-lock-'));
  const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 's1' });
  await log.close();
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('refuses to reopen a session another process is writing, naming that process', async () => {
  const holder = await holdSession(root, 's1');
  try {
    const refused = await SessionLog.resume(root, 's1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect((refused as SessionLockedError).holder.pid).toBe(holder.pid);
    expect((refused as Error).message).toContain(`Session s1 is open in another process (pid ${holder.pid}, since `);
    // Refused before anything was written: the holder's file is as it left it.
    const before = await readFile(path.join(root, 's1.jsonl'), 'utf8');
    expect(before.trim().split('\n')).toHaveLength(1);
  } finally {
    await holder.close();
  }
  const { log } = await SessionLog.resume(root, 's1');
  await log.close();
});

it('refuses to delete a session another process is writing', async () => {
  const holder = await holdSession(root, 's1');
  try {
    await expect(deleteSession(root, 's1')).rejects.toThrow(`pid ${holder.pid}`);
    await expect(readFile(path.join(root, 's1.jsonl'), 'utf8')).resolves.toContain('"header"');
  } finally {
    await holder.close();
  }
});

it('takes over the lock of a process that died without giving it back', async () => {
  const holder = await holdSession(root, 's1');
  await holder.kill();
  await expect(readFile(sessionLockOf(root, 's1'), 'utf8')).resolves.toContain(`"pid":${holder.pid}`);
  const { log } = await SessionLog.resume(root, 's1');
  await expect(readFile(sessionLockOf(root, 's1'), 'utf8')).resolves.toContain(`"pid":${process.pid}`);
  await log.close();
});

it('takes over a lock that names a running process started at another time (a reused pid)', async () => {
  const reused = {
    pid: process.pid,
    host: os.hostname(),
    process_start: '1',
    since: '2020-01-01T00:00:00.000Z',
    token: 'old',
  };
  await writeFile(sessionLockOf(root, 's1'), JSON.stringify(reused));
  const { log } = await SessionLog.resume(root, 's1');
  await log.close();
});

it('respects a lock held on another host, whose process cannot be checked from here', async () => {
  const remote = { pid: 1, host: 'elsewhere.invalid', since: '2020-01-01T00:00:00.000Z', token: 'far' };
  await writeFile(sessionLockOf(root, 's1'), JSON.stringify(remote));
  await expect(SessionLog.resume(root, 's1')).rejects.toThrow('pid 1 on elsewhere.invalid');
});

it('gives the lock back on close, so the file is gone and the session can be reopened', async () => {
  const { log } = await SessionLog.resume(root, 's1');
  await log.close();
  await expect(readFile(sessionLockOf(root, 's1'))).rejects.toMatchObject({ code: 'ENOENT' });
});
