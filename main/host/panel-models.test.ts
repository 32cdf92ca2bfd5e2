import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The panel's models: a compatible server's window reaches the meter, settings.json's override
// gives a model its prices, and a switch to a server that is down or lacks the model is refused
// with the reason while the model selected before stays.

let base: string;
let server: FixtureServer;
let service: PanelService;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-models-'));
  server = await startFixtureServer({ script: { steps: [], models: [{ id: 'small', context_window: 8_000 }] } });
});

afterEach(async () => {
  await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

async function panel(settings: Record<string, unknown>): Promise<{ events: StatusEvent[] }> {
  const config = path.join(base, 'config');
  await mkdir(config, { recursive: true });
  await writeFile(path.join(config, SETTINGS_FILE), JSON.stringify(settings));
  service = testPanelService({
    workspace: await realpath(await mkdtemp(path.join(base, 'ws-'))),
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(config),
  });
  const events: StatusEvent[] = [];
  service.events.subscribe((message) => {
    if (message.event === 'status') events.push(message.payload);
  });
  return { events };
}

it("meters a compatible model against the window its server states, at the override's prices", async () => {
  const model = `compat:${server.baseURL}#small`;
  const { events } = await panel({ model, model_overrides: { [model]: { prices: { input: 1, output: 2 } } } });
  server.load({
    steps: [{ text: ['Hi.'], usage: { input_tokens: 1_000, output_tokens: 100 } }],
    models: [{ id: 'small', context_window: 8_000 }],
  });
  expect((await service.handlers['turn:send']({ text: 'Hello' })).ok).toBe(true);
  await expect.poll(() => events.find((event) => event.type === 'turn_completed'), { timeout: 15_000 }).toBeDefined();
  expect(events.find((event) => event.type === 'context_estimate')).toMatchObject({ context_window: 8_000 });
  const step = events.find((event) => event.type === 'step_usage');
  expect(step).toMatchObject({ context_tokens: 1_100, context_window: 8_000 });
  expect(step?.type === 'step_usage' && step.cost).toBeCloseTo((1_000 * 1 + 100 * 2) / 1e6, 12);
});

it('refuses a switch to a compatible server that is down or lacks the model, and keeps the model selected', async () => {
  await panel({ model: 'demo' });
  const down = await startFixtureServer();
  const downURL = down.baseURL;
  await down.close();
  const refused = await service.handlers['settings:update']({ model: `compat:${downURL}#small` });
  expect(refused.ok).toBe(false);
  expect(!refused.ok && refused.error).toContain(`Cannot reach the model server at ${downURL}/models`);

  const missing = await service.handlers['settings:update']({ model: `compat:${server.baseURL}#large` });
  expect(!missing.ok && missing.error).toBe('The model server offers no model named "large"; it offers small.');
  const settings = await service.handlers['settings:get']();
  expect(settings.ok && settings.value.model).toBe('demo');

  const switched = await service.handlers['settings:update']({ model: `compat:${server.baseURL}#small` });
  expect(switched.ok && switched.value.model).toBe(`compat:${server.baseURL}#small`);
});
