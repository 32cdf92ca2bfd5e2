import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { PanelEventMessage } from './panel-events.ts';
import { dispatchPanelRequest } from './panel-schemas.ts';
import type { PanelService } from './panel-service.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The panel's own file reads go through the request edge like every request, but past it they are
// the panel's alone: no model request, no status event, not a byte in the open session's log.

const dirs = useTempWorkspace('aether-panel-file-');
let server: FixtureServer;
let service: PanelService;
let messages: PanelEventMessage[];

beforeEach(async () => {
  server = await startFixtureServer();
  service = testPanelService({
    workspace: dirs.workspace,
    sessionsRoot: dirs.sessionsRoot,
    settings: new SettingsStore(dirs.root, { overrides: { model: `compat:${server.baseURL}#scripted` } }),
  });
  messages = [];
  service.events.subscribe((message) => messages.push(message));
});

afterEach(async () => {
  await service.close();
  await server.close();
});

describe('file:read through the panel service', () => {
  it('reads the file without a model request, an event or a line in the session log', async () => {
    await writeFile(path.join(dirs.workspace, 'notes.md'), 'one\ntwo\nthree\n');
    server.load({ steps: [{ text: ['Hello.'] }] });
    const sent = await service.handlers['turn:send']({ text: 'hi' });
    expect(sent.ok).toBe(true);
    await expect
      .poll(() => messages.some((message) => message.event === 'status' && message.payload.type === 'turn_completed'))
      .toBe(true);
    const log = path.join(dirs.sessionsRoot, `${(await service.info()).session!.id}.jsonl`);
    const [logBefore, requestsBefore, eventsBefore] = [
      await readFile(log, 'utf8'),
      server.requests.length,
      messages.length,
    ];

    const read = await dispatchPanelRequest(service.handlers, 'file:read', { path: 'notes.md', offset: 2, limit: 1 });
    expect(read).toMatchObject({
      ok: true,
      value: { path: 'notes.md', range: { start: 2, end: 2 }, content: 'two\n' },
    });

    expect(await readFile(log, 'utf8')).toBe(logBefore);
    expect(server.requests.length).toBe(requestsBefore);
    expect(messages.length).toBe(eventsBefore);
  });

  it('refuses, at the edge, a page larger than read_file’s', async () => {
    const read = await dispatchPanelRequest(service.handlers, 'file:read', { path: 'notes.md', limit: 5000 });
    expect(read).toMatchObject({ ok: false, error: expect.stringMatching(/Invalid request for file:read: limit/) });
  });

  it('answers viewer for file:open on a host without an editor', async () => {
    expect(await dispatchPanelRequest(service.handlers, 'file:open', { path: 'notes.md', line: 2 })).toEqual({
      ok: true,
      value: 'viewer',
    });
    expect((await service.info()).opens_editor).toBeUndefined();
  });
});
