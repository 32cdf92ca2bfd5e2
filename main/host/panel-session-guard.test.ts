import { appendFile, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { holdSession } from '../../test/session-holder.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { SessionLog } from '../session/session-log.ts';
import type { PanelService } from './panel-service.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// Opening a session in the panel that another process is writing, or that is damaged.

let base: string;
let workspace: string;
let sessions: string;
let server: FixtureServer;
let service: PanelService;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-guard-'));
  workspace = await realpath(await mkdtemp(path.join(base, 'ws-')));
  sessions = path.join(base, 'sessions');
  server = await startFixtureServer();
  service = testPanelService({
    workspace,
    sessionsRoot: sessions,
    settings: new SettingsStore(path.join(base, 'config'), { overrides: { model: `compat:${server.baseURL}#m` } }),
  });
});

afterEach(async () => {
  await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

async function sessionWithATurn(id: string): Promise<string> {
  const log = await SessionLog.create({ root: sessions, workspace, model: 'demo', id });
  const at = new Date().toISOString();
  await log.appendEvent({ type: 'user_message', turn_id: 't1', text: 'Hello', seq: 1, at });
  await log.appendEvent({ type: 'turn_started', turn_id: 't1', model: 'demo', seq: 2, at });
  await log.close();
  return log.file;
}

it('shows a session another process is writing read-only, saying which process holds it', async () => {
  const holder = await holdSession(sessions, 'held-1', { create: { workspace } });
  try {
    // The holder's turn, running: written as its session log writes events.
    const file = path.join(sessions, 'held-1.jsonl');
    const at = new Date().toISOString();
    const events = [
      { type: 'user_message', turn_id: 't1', text: 'Hello', seq: 1, at },
      { type: 'turn_started', turn_id: 't1', model: 'demo', seq: 2, at },
    ];
    await appendFile(file, events.map((event) => `${JSON.stringify({ kind: 'event', event })}\n`).join(''));
    const opened = await service.handlers['session:open']({ id: 'held-1' });
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.value.notices).toEqual([
      expect.objectContaining({ kind: 'read_only', text: expect.stringContaining(`pid ${holder.pid}`) }),
    ]);
    // The holder's turn is drawn as running, not ended by a repair this process would have written.
    expect(opened.value.events.map((event) => event.type)).toEqual(['user_message', 'turn_started']);
    expect((await service.info()).session).toBeNull();
    expect(await readFile(file, 'utf8')).not.toContain('Interrupted');
  } finally {
    await holder.close();
  }
});

it('says how many lines were damaged when it reopens a session, the torn tail included', async () => {
  const file = await sessionWithATurn('damaged-1');
  await appendFile(file, 'garbage line\n{"kind":"event","ev');
  const opened = await service.handlers['session:open']({ id: 'damaged-1' });
  if (!opened.ok) throw new Error(opened.error);
  expect(opened.value.notices).toEqual([expect.objectContaining({ kind: 'damaged', lines: 2 })]);
  expect(opened.value.notices?.[0]?.text).toContain(`moved to ${file}.corrupt`);
  // Opened again (a page reload), the notice still says what the reopening found.
  const again = await service.handlers['session:open']({ id: 'damaged-1' });
  expect(again.ok && again.value.notices?.[0]?.lines).toBe(2);
});
