import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// settings.json's model_request_timeout_s bounds every model request of the panel's sessions.

let base: string;
let server: FixtureServer;
let service: PanelService;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-deadline-'));
  server = await startFixtureServer();
});

afterEach(async () => {
  await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

it("ends a turn whose model only trickles keep-alives once settings.json's model_request_timeout_s passes", async () => {
  const config = path.join(base, 'config');
  await mkdir(config);
  await writeFile(path.join(config, SETTINGS_FILE), JSON.stringify({ model_request_timeout_s: 1.5 }));
  service = testPanelService({
    workspace: await realpath(await mkdtemp(path.join(base, 'ws-'))),
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(config, { overrides: { model: `compat:${server.baseURL}#m` } }),
  });
  const events: StatusEvent[] = [];
  service.events.subscribe((message) => {
    if (message.event === 'status') events.push(message.payload);
  });
  // Keep-alives every 50 ms: the 60 s stall timer never fires, only the request's deadline can.
  server.load({
    steps: [{ text: ['Thinking ', 'forever'], fault: { type: 'trickle', after_event_containing: 'Thinking ' } }],
  });

  const sent = await service.handlers['turn:send']({ text: 'Go' });
  expect(sent.ok).toBe(true);
  await expect.poll(() => events.find((event) => event.type === 'turn_failed'), { timeout: 15_000 }).toBeDefined();
  const failed = events.find((event) => event.type === 'turn_failed');
  expect(failed?.type === 'turn_failed' && failed.error).toContain('the request was still going after 1.5 s');
});
