import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { PanelHandlers } from '../../protocol/api.ts';
import { SessionCheckpoints } from '../tools/checkpoints/call-checkpoints.ts';
import { CheckpointSetting } from './checkpoint-setting.ts';
import { dispatchPanelRequest } from './panel-schemas.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';

// The checkpoint settings: read from settings.json value by value (a bad one falls back to its
// default), checked at the panel's edge with a message that says what is allowed, and followed by
// a session's checkpoints from its next call on.

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-checkpoint-setting-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('keeps good values from settings.json and replaces bad ones by the defaults (on, 2048 MiB, 50 MiB)', async () => {
  const defaults = { checkpoints_enabled: true, checkpoint_storage_mib: 2048, checkpoint_max_file_mib: 50 };
  expect(await new SettingsStore(root).get()).toMatchObject(defaults);
  const chosen = { checkpoints_enabled: false, checkpoint_storage_mib: 512, checkpoint_max_file_mib: 8 };
  await writeFile(path.join(root, SETTINGS_FILE), JSON.stringify(chosen));
  expect(await new SettingsStore(root).get()).toMatchObject(chosen);
  await writeFile(
    path.join(root, SETTINGS_FILE),
    JSON.stringify({
      checkpoints_enabled: 'no',
      checkpoint_storage_mib: 1.5,
      checkpoint_max_file_mib: 0,
      theme: 'dark',
    }),
  );
  expect(await new SettingsStore(root).get()).toMatchObject({ ...defaults, theme: 'dark' });
});

it('refuses a storage limit out of bounds or not whole at the panel edge, saying what is allowed', async () => {
  const patches: unknown[] = [];
  const handlers = {
    'settings:update': (patch: unknown) => {
      patches.push(patch);
      return Promise.resolve({ ok: true, value: {} });
    },
  } as unknown as PanelHandlers;
  const send = (patch: unknown) => dispatchPanelRequest(handlers, 'settings:update', patch);
  expect(await send({ checkpoint_storage_mib: 8 })).toEqual({
    ok: false,
    error:
      'Invalid request for settings:update: checkpoint_storage_mib: The checkpoint storage limit is at least 16 MiB.',
  });
  expect(await send({ checkpoint_storage_mib: 100.5 })).toMatchObject({ ok: false, error: /whole number of MiB/ });
  expect(await send({ checkpoint_storage_mib: 2 ** 21 })).toMatchObject({ ok: false, error: /at most 1048576 MiB/ });
  expect(await send({ checkpoints_enabled: 'off' })).toMatchObject({ ok: false, error: /checkpoints_enabled/ });
  expect(await send({ checkpoint_max_file_mib: 2048 })).toMatchObject({
    ok: false,
    error: /checkpoint_max_file_mib: The largest file a checkpoint keeps is at most 1024 MiB/,
  });
  expect(patches).toEqual([]);
  expect(await send({ checkpoints_enabled: false, checkpoint_storage_mib: 64 })).toMatchObject({ ok: true });
  expect(patches).toEqual([{ checkpoints_enabled: false, checkpoint_storage_mib: 64 }]);
});

it("is followed by a session's checkpoints from the next call on: the storage limit, then off", async () => {
  const workspace = path.join(root, 'ws');
  await mkdir(workspace);
  await writeFile(path.join(workspace, 'a.txt'), 'a\n');
  const setting = new CheckpointSetting();
  const checkpoints = new SessionCheckpoints({
    folder: path.join(root, 'session', 'checkpoints'),
    workspace,
    settings: setting.current,
  });
  const write = (callId: string) => checkpoints.before({ callId, name: 'write_file', kind: 'write' });

  expect(await write('c1')).toMatchObject({ id: expect.stringMatching(/^cp-/) as string });
  expect((await checkpoints.store()).settings.maxStorageBytes).toBe(2048 * 1024 * 1024);

  setting.apply({ checkpoints_enabled: true, checkpoint_storage_mib: 16, checkpoint_max_file_mib: 1 });
  await writeFile(path.join(workspace, 'big.bin'), Buffer.alloc(1024 * 1024 + 1, 7));
  expect(await write('c2')).toMatchObject({ not_restorable: ['big.bin'] });
  expect((await checkpoints.store()).settings).toEqual({
    maxStorageBytes: 16 * 1024 * 1024,
    maxFileBytes: 1024 * 1024,
  });

  setting.apply({ checkpoints_enabled: false, checkpoint_storage_mib: 16 });
  expect(await write('c3')).toEqual({ id: '', off: true });
  expect((await checkpoints.store()).list().map((checkpoint) => checkpoint.call_id)).toEqual(['c1', 'c2']);
  checkpoints.close();
});
