import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isRunning, killStill, pidIn } from '../../test/processes.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { readSessionFile } from '../session/replay.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The app quitting (the window closed, a signal, the system shutting down) while a command runs:
// the host closes the panel service, saying why. A real sleep, found by its pid.

let base: string;
let server: FixtureServer;
const started: number[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-panel-close-')));
  server = await startFixtureServer();
});

afterEach(async () => {
  killStill(started);
  await server.close();
  await rm(base, { recursive: true, force: true });
});

it('stops the running command when it closes and records the turn as stopped, saying why', async () => {
  const service = testPanelService({
    workspace: base,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted` },
    }),
  });
  const pidFile = path.join(base, 'sleep.pid');
  await service.handlers['settings:update']({ permission_mode: 'auto' });
  server.load({
    steps: [
      { tool_calls: [{ id: 'call_1', name: 'exec', args: { command: `echo $$ > ${pidFile}; exec sleep 1000` } }] },
      { text: ['Not reached.'] },
    ],
  });
  const sent = await service.handlers['turn:send']({ text: 'Sleep' });
  if (!sent.ok) throw new Error(sent.error);
  const pid = await pidIn(pidFile);
  started.push(pid);

  await service.close('Stopped: the system is shutting down.');

  expect(isRunning(pid)).toBe(false);
  const [file] = (await readdir(path.join(base, 'sessions'))).filter((name) => name.endsWith('.jsonl'));
  const { events } = await readSessionFile(path.join(base, 'sessions', file!));
  expect(events.at(-1)).toMatchObject({
    type: 'turn_failed',
    aborted: true,
    error: 'Stopped: the system is shutting down.',
  });
}, 30_000);
