import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The panel's sessions run commands with the environment settings.json allows: a real session,
// the fixture model over HTTP asking for one `exec`, and a real shell printing what it received.

const SET = {
  OPENAI_API_KEY: 'sk-from-the-app',
  AETHER_TEST_SECRET_TOKEN: 'secret',
  AETHER_TEST_KEPT: 'kept',
};
const PRINT =
  'printf "%s|%s|%s" "${OPENAI_API_KEY-unset}" "${AETHER_TEST_SECRET_TOKEN-unset}" "${AETHER_TEST_KEPT-unset}"';

let base: string;
let server: FixtureServer;
let service: PanelService | undefined;
const saved: Record<string, string | undefined> = {};

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-env-'));
  server = await startFixtureServer();
  // exec starts commands from this process's environment, as the app does.
  for (const [name, value] of Object.entries(SET)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});

afterEach(async () => {
  await service?.close();
  service = undefined;
  await server.close();
  await rm(base, { recursive: true, force: true });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** What the command saw, with settings.json holding `settings`. */
async function commandSees(settings: Record<string, unknown>): Promise<string> {
  const config = path.join(base, 'config');
  await mkdir(config, { recursive: true });
  await writeFile(path.join(config, SETTINGS_FILE), JSON.stringify({ permission_mode: 'auto', ...settings }));
  service = testPanelService({
    workspace: await realpath(await mkdtemp(path.join(base, 'ws-'))),
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(config, { overrides: { model: `compat:${server.baseURL}#scripted` } }),
  });
  server.load({
    steps: [{ tool_calls: [{ id: 'call_1', name: 'exec', args: { command: PRINT } }] }, { text: ['Done.'] }],
  });
  await service.handlers['turn:send']({ text: 'Print the environment' });
  let content: string | undefined;
  await expect
    .poll(
      async () => {
        const fetched = await service!.handlers['tool:content']({ call_id: 'call_1' });
        content = fetched.ok ? fetched.value.content : undefined;
        return content;
      },
      { timeout: 10_000 },
    )
    .toBeDefined();
  return content!.split('\n').at(-1)!;
}

describe('the environment of the panel’s commands', () => {
  it('drops the provider keys and the variables exec_env_deny names', async () => {
    expect(await commandSees({ exec_env_deny: ['AETHER_TEST_SECRET_*'] })).toBe('unset|unset|kept');
  });

  it('passes a provider key when exec_env_allow names it', async () => {
    expect(await commandSees({ exec_env_allow: ['OPENAI_API_KEY'] })).toBe('sk-from-the-app|secret|kept');
  });

  it('keeps the valid entries of a deny list that holds one that is not a variable name', async () => {
    expect(await commandSees({ exec_env_deny: ['AETHER_TEST_SECRET_TOKEN', 'not a name', 42] })).toBe(
      'unset|unset|kept',
    );
  });
});
