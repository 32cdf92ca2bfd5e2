import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// A settings.json the panel cannot use: the panel service over a real settings folder, real
// session files and the fixture model over HTTP. No session starts on the defaults, the panel is
// told which file and where, and nothing is written over the file.

const GOOD = `{
  "permission_rules": { "allow": [], "ask": [], "deny": ["exec(rm *)"] },
  "exec_env_deny": ["AWS_*"]
}
`;
/** The same file with a comma after the last property: JSON stops at the closing brace, 4:1. */
const TRAILING_COMMA = GOOD.replace('"]\n}', '"],\n}');

let base: string;
let config: string;
let file: string;
let workspace: string;
let server: FixtureServer;
const services: PanelService[] = [];

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-settings-'));
  config = path.join(base, 'config');
  file = path.join(config, SETTINGS_FILE);
  await mkdir(config);
  workspace = await realpath(await mkdtemp(path.join(base, 'ws-')));
  server = await startFixtureServer();
});

afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

function makeService(): PanelService {
  const service = testPanelService({
    workspace,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(config, { overrides: { model: `compat:${server.baseURL}#scripted` } }),
  });
  services.push(service);
  return service;
}

describe('a settings file the panel cannot use', () => {
  it('refuses to start a session, naming the file and the line:column', async () => {
    expect(TRAILING_COMMA).not.toBe(GOOD);
    await writeFile(file, TRAILING_COMMA);
    const service = makeService();
    server.load({ steps: [{ text: ['Hello.'] }] });
    const sent = await service.handlers['turn:send']({ text: 'hi' });
    expect(sent).toMatchObject({
      ok: false,
      error: expect.stringContaining(`Cannot start a session: The settings file ${file}`),
    });
    expect(!sent.ok && sent.error).toContain(`${file}:4:1`);
    expect(await service.handlers['session:new']()).toMatchObject({
      ok: false,
      error: expect.stringContaining(`${file}:4:1`),
    });
    expect((await service.handlers['panel:info']()).session).toBeNull();
    expect(await readdir(path.join(base, 'sessions')).catch(() => [])).toEqual([]);
  });

  it('tells the panel what is wrong with the file and refuses to save over it', async () => {
    await writeFile(file, TRAILING_COMMA);
    const service = makeService();
    const settings = await service.handlers['settings:get']();
    expect(settings).toMatchObject({
      ok: true,
      value: { file_problems: { path: file, unreadable: expect.stringContaining(`${file}:4:1`), ignored: [] } },
    });
    const saved = await service.handlers['settings:update']({ theme: 'dark' });
    expect(saved).toMatchObject({ ok: false, error: expect.stringContaining(`${file}:4:1`) });
    expect(await readFile(file, 'utf8')).toBe(TRAILING_COMMA);
  });

  it('starts sessions again once the file is fixed, with its settings', async () => {
    await writeFile(file, TRAILING_COMMA);
    const service = makeService();
    expect(await service.handlers['turn:send']({ text: 'hi' })).toMatchObject({ ok: false });
    await writeFile(file, GOOD);
    const settings = await service.handlers['settings:get']();
    expect(settings.ok && settings.value.file_problems).toBeUndefined();
    expect(settings.ok && settings.value.permission_rules?.deny).toEqual(['exec(rm *)']);
    server.load({ steps: [{ text: ['Hello.'] }] });
    expect(await service.handlers['turn:send']({ text: 'hi' })).toMatchObject({ ok: true });
  });

  it('refuses to reopen a session while the file cannot be used', async () => {
    await writeFile(file, GOOD);
    const first = makeService();
    server.load({ steps: [{ text: ['Hello.'] }] });
    expect(await first.handlers['turn:send']({ text: 'hi' })).toMatchObject({ ok: true });
    const id = (await first.handlers['panel:info']()).session!.id;
    await first.close();
    await writeFile(file, TRAILING_COMMA);
    const opened = await makeService().handlers['session:open']({ id });
    expect(opened).toMatchObject({ ok: false, error: expect.stringContaining(`Cannot reopen session ${id}: `) });
    expect(!opened.ok && opened.error).toContain(`${file}:4:1`);
  });

  it('shows a deny list it does not use, and keeps it in the file when another setting is saved', async () => {
    const written = { exec_env_deny: 'AWS_*', permission_rules: { deny: ['exec(rm *)', 'remove(*)'] } };
    await writeFile(file, JSON.stringify(written));
    const service = makeService();
    const settings = await service.handlers['settings:get']();
    expect(settings.ok && settings.value.file_problems?.ignored).toEqual([
      expect.stringContaining('permission_rules.deny: "remove(*)" is not a permission rule'),
      expect.stringContaining('exec_env_deny must be a list of variable names'),
    ]);
    expect(await service.handlers['settings:update']({ theme: 'dark' })).toMatchObject({ ok: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ ...written, theme: 'dark' });
  });
});
