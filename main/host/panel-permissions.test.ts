import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { dispatchPanelRequest } from './panel-schemas.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// Permission rules and modes set through the panel API reach the session's gate: a real session,
// the fixture model over HTTP asking for commands, real shells.

let base: string;
let server: FixtureServer;
let service: PanelService;
const events: StatusEvent[] = [];

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-rules-'));
  server = await startFixtureServer();
  events.length = 0;
  service = testPanelService({
    workspace: await realpath(await mkdtemp(path.join(base, 'ws-'))),
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted` },
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

async function completed(callId: string) {
  await expect
    .poll(() => events.some((event) => event.type === 'tool_completed' && event.call_id === callId), {
      timeout: 10_000,
    })
    .toBe(true);
  const content = await service.handlers['tool:content']({ call_id: callId });
  return content.ok ? content.value.content : content.error;
}

describe('permission settings in the panel', () => {
  it('applies rules saved before the session starts, and again when they change', async () => {
    const saved = await dispatchPanelRequest(service.handlers, 'settings:update', {
      permission_rules: { allow: ['exec(echo RULED *)'], ask: [], deny: ['exec(rm *)'] },
    });
    expect(saved.ok).toBe(true);
    server.load({
      steps: [
        {
          tool_calls: [
            { id: 'call_echo', name: 'exec', args: { command: 'echo RULED ok' } },
            { id: 'call_rm', name: 'exec', args: { command: 'rm -f x' } },
          ],
        },
        { text: ['Done.'] },
      ],
    });
    await service.handlers['turn:send']({ text: 'Run them' });
    expect(await completed('call_echo')).toContain('RULED ok');
    expect(await completed('call_rm')).toMatch(/matches the deny rule exec\(rm \*\)/);
    expect(events.filter((event) => event.type === 'tool_approval_requested')).toEqual([]);

    await expect.poll(() => events.some((event) => event.type === 'turn_completed'), { timeout: 10_000 }).toBe(true);
    await dispatchPanelRequest(service.handlers, 'settings:update', {
      permission_rules: { allow: [], ask: [], deny: ['exec(echo *)'] },
    });
    server.load({
      steps: [
        { tool_calls: [{ id: 'call_again', name: 'exec', args: { command: 'echo RULED again' } }] },
        { text: ['No.'] },
      ],
    });
    await service.handlers['turn:send']({ text: 'Once more' });
    expect(await completed('call_again')).toMatch(/matches the deny rule exec\(echo \*\)/);
  });

  it('refuses a rule it cannot read, with the reason', async () => {
    const saved = await dispatchPanelRequest(service.handlers, 'settings:update', {
      permission_rules: { allow: ['bash(ls)'], ask: [], deny: [] },
    });
    expect(saved).toMatchObject({ ok: false, error: expect.stringMatching(/"bash\(ls\)" is not a permission rule/) });
  });

  it('reads the bypass mode and the rules from a hand-edited settings file, dropping a rule it cannot read', async () => {
    const folder = path.join(base, 'hand');
    await mkdir(folder);
    const rules = { allow: ['exec(npm test)', 'exec('], ask: 'not a list', deny: ['write(.env)'] };
    await writeFile(
      path.join(folder, SETTINGS_FILE),
      JSON.stringify({ permission_mode: 'bypass', permission_rules: rules }),
    );
    const read = await new SettingsStore(folder).get();
    expect(read.permission_mode).toBe('bypass');
    expect(read.permission_rules).toEqual({ allow: ['exec(npm test)'], ask: [], deny: ['write(.env)'] });
  });
});
