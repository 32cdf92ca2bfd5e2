import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { dispatchPanelRequest } from './panel-schemas.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The largest file write_file and patch_file read whole is a setting (max_edit_file_mib, 64 MiB by
// default): the panel API changes it within bounds and the running session's tools follow it.

let base: string;
let workspace: string;
let server: FixtureServer;
let service: PanelService;
const events: StatusEvent[] = [];

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-limit-'));
  workspace = await realpath(await mkdtemp(path.join(base, 'ws-')));
  server = await startFixtureServer();
  events.length = 0;
  service = testPanelService({
    workspace,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted`, permission_mode: 'auto' },
    }),
  });
  service.events.subscribe((message) => {
    if (message.event === 'status') events.push(message.payload);
  });
});

afterEach(async () => {
  await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

/** One turn in which the model patches big.txt; what the model received for it. */
async function patchTurn(callId: string): Promise<string> {
  server.load({
    steps: [
      {
        tool_calls: [
          { id: callId, name: 'patch_file', args: { path: 'big.txt', edits: [{ old_text: 'end', new_text: 'END' }] } },
        ],
      },
      { text: ['Done.'] },
    ],
  });
  await service.handlers['turn:send']({ text: 'Patch it' });
  await expect
    .poll(() => events.some((event) => event.type === 'turn_completed' || event.type === 'turn_failed'), {
      timeout: 10_000,
    })
    .toBe(true);
  events.length = 0;
  const content = await service.handlers['tool:content']({ call_id: callId });
  return content.ok ? content.value.content : content.error;
}

describe('the edit size limit in the panel', () => {
  it('follows a change made while the session runs', async () => {
    await writeFile(path.join(workspace, 'big.txt'), `${'x'.repeat(2 * 1024 * 1024)}\nend\n`);
    expect(await patchTurn('call_1')).toMatch(/^Patched big\.txt/);

    const saved = await dispatchPanelRequest(service.handlers, 'settings:update', { max_edit_file_mib: 1 });
    expect(saved).toMatchObject({ ok: true, value: { max_edit_file_mib: 1 } });
    expect(await patchTurn('call_2')).toContain(
      'big.txt is 2.0 MiB, over the 1 MiB limit of files patch_file reads whole',
    );
    expect(await readFile(path.join(workspace, 'big.txt'), 'utf8')).toMatch(/\nEND\n$/);
  });

  it('refuses a value outside 1–2047 MiB through the panel API', async () => {
    for (const value of [0, 2048, 1.5, '64']) {
      const saved = await dispatchPanelRequest(service.handlers, 'settings:update', { max_edit_file_mib: value });
      expect(saved.ok).toBe(false);
    }
  });
});

describe('the max_edit_file_mib setting in settings.json', () => {
  it('is 64 by default, keeps a valid value, and falls back to 64 for a bad one', async () => {
    const folder = path.join(base, 'settings');
    expect((await new SettingsStore(folder).get()).max_edit_file_mib).toBe(64);
    await new SettingsStore(folder).update({ max_edit_file_mib: 256 });
    expect((await new SettingsStore(folder).get()).max_edit_file_mib).toBe(256);
    await writeFile(path.join(folder, SETTINGS_FILE), JSON.stringify({ max_edit_file_mib: 'huge' }));
    expect((await new SettingsStore(folder).get()).max_edit_file_mib).toBe(64);
  });
});
