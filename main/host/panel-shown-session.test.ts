import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { modelCatalog } from './models.ts';
import type { PanelService } from './panel-service.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// A session of another workspace, shown read-only beside this workspace's live session, where both
// made a call with the same id (models reuse them): its file links are the files of its own
// workspace, and what would act on it — a rewind, its turn's changes — is refused in words that
// say why and name no internal id, instead of being done to the live session. Back on a session of
// this workspace, links are this workspace's files again.

let base: string;
let here: string;
let there: string;
let server: FixtureServer;
const services: PanelService[] = [];

function serviceIn(workspace: string): PanelService {
  const service = testPanelService({
    workspace,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted` },
    }),
    models: modelCatalog(),
  });
  services.push(service);
  return service;
}

/** One turn whose call (always call_1) runs `command`; the id of the session it is in. */
async function turnRunning(service: PanelService, command: string): Promise<string> {
  const statuses: StatusEvent[] = [];
  service.events.subscribe((message) => {
    if (message.event === 'status') statuses.push(message.payload);
  });
  server.load({ steps: [{ tool_calls: [{ id: 'call_1', name: 'exec', args: { command } }] }, { text: ['Done.'] }] });
  await service.handlers['settings:update']({ permission_mode: 'auto' });
  await service.handlers['turn:send']({ text: `Run ${command}` });
  await expect.poll(() => statuses.some((event) => event.type === 'turn_completed'), { timeout: 10_000 }).toBe(true);
  return (await service.handlers['panel:info']()).session!.id;
}

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-shown-'));
  here = await realpath(await mkdtemp(path.join(base, 'here-')));
  there = await realpath(await mkdtemp(path.join(base, 'there-')));
  server = await startFixtureServer();
  await mkdir(path.join(there, 'notes'));
  await writeFile(path.join(there, 'notes', 'there.md'), 'written over there\n');
  await writeFile(path.join(here, 'here.md'), 'written here\n');
});

afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

it("links another workspace's session to its own files and refuses to act on it, in plain words", async () => {
  const elsewhere = serviceIn(there);
  const theirs = await turnRunning(elsewhere, 'echo there > made.txt');
  await elsewhere.close();
  const service = serviceIn(here);
  const ours = await turnRunning(service, 'echo here > made.txt');

  const opened = await service.handlers['session:open']({ id: theirs });
  if (!opened.ok) throw new Error(opened.error);
  const turnId = opened.value.events.find((event) => event.type === 'user_message')?.turn_id ?? '';
  expect(await service.handlers['file:exists']({ paths: ['notes/there.md', 'here.md'] })).toEqual({
    ok: true,
    value: ['notes/there.md'],
  });
  expect(await service.handlers['file:read']({ path: 'notes/there.md' })).toMatchObject({
    ok: true,
    value: { content: 'written over there\n' },
  });

  const refusals = [
    await service.handlers['rewind:preview']({ target: 'call_1', mode: 'code' }),
    await service.handlers['rewind:apply']({ target: 'call_1', mode: 'both' }),
    await service.handlers['changes:turn']({ turn_id: turnId }),
    await service.handlers['changes:revert']({ turn_id: turnId }),
    await service.handlers['tool:cancel']({ call_id: 'call_1' }),
  ];
  for (const refusal of refusals) {
    expect(refusal).toMatchObject({
      ok: false,
      error: expect.stringContaining(`open it in its own workspace (${there})`),
    });
    if (!refusal.ok) for (const id of ['call_1', turnId]) expect(refusal.error).not.toContain(id);
  }
  expect(refusals[0]).toEqual({
    ok: false,
    error: `The session shown belongs to another workspace, so it is only shown here: to rewind it, open it in its own workspace (${there}).`,
  });
  // The live session's file was not rewound in the viewed one's name.
  expect(await readFile(path.join(here, 'made.txt'), 'utf8')).toBe('here\n');

  await service.handlers['session:open']({ id: ours });
  expect(await service.handlers['file:exists']({ paths: ['notes/there.md', 'here.md'] })).toEqual({
    ok: true,
    value: ['here.md'],
  });
  expect(await service.handlers['file:read']({ path: 'made.txt' })).toMatchObject({
    ok: true,
    value: { content: 'here\n' },
  });
  expect(await service.handlers['changes:turn']({ turn_id: 'not-a-turn' })).toEqual({
    ok: false,
    error: 'This turn is not in the open session (it may have changed meanwhile): open the session again.',
  });
});
