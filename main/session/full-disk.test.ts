import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fillAllButOnePage, mountSmallFilesystem, type SmallFilesystem } from '../../test/small-filesystem.ts';
import { readSessionFile } from './replay.ts';
import { SessionLog } from './session-log.ts';

// A session that stays open (the panel's case) on a real 1 MiB file system that fills up.

let small: SmallFilesystem | undefined;
let unavailable = '';

beforeAll(async () => {
  const mounted = await mountSmallFilesystem(1024 * 1024);
  if (mounted.ok) small = mounted.fs;
  else unavailable = mounted.reason;
});

afterAll(async () => {
  await small?.unmount();
});

it('keeps the next record whole after an append the full disk took only part of', async (context) => {
  if (!small) return context.skip(unavailable);
  const root = path.join(small.dir, 'sessions');
  const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id: 'full-1' });
  const at = new Date().toISOString();
  await log.appendEvent({ type: 'user_message', turn_id: 't1', text: 'first', seq: 1, at });
  const filler = await fillAllButOnePage(small.dir);

  const big = { type: 'user_message' as const, turn_id: 't2', text: 'x'.repeat(20_000), seq: 2, at };
  await expect(log.appendEvent(big)).rejects.toThrow(/Could not write the session file .*cut back to its last whole/);
  expect(log.writeDamage).toMatchObject({ repaired: true });

  await rm(filler);
  await log.appendEvent({ type: 'user_message', turn_id: 't3', text: 'the next message', seq: 3, at });
  expect(log.writeDamage).toBeNull();
  await log.close();

  const replay = await readSessionFile(log.file);
  expect(replay.corrupt).toEqual([]);
  expect(replay.torn).toBeNull();
  expect(replay.events.map((event) => (event.type === 'user_message' ? event.text : event.type))).toEqual([
    'first',
    'the next message',
  ]);
});
