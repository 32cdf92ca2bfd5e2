import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_FILE, SettingsStore } from './settings-store.ts';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-settings-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('settings store', () => {
  it('starts from the defaults: the demo model, updates off', async () => {
    expect(await new SettingsStore(folder).get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({ model: 'demo', updates_enabled: false });
  });

  it('persists an update as JSON only its owner can read', async () => {
    await new SettingsStore(folder).update({ theme: 'light', permission_mode: 'read-only' });
    expect(await new SettingsStore(folder).get()).toMatchObject({ theme: 'light', permission_mode: 'read-only' });
    expect((await stat(path.join(folder, SETTINGS_FILE))).mode & 0o777).toBe(0o600);
  });

  it('replaces a bad value by its default and keeps the good ones', async () => {
    await writeFile(path.join(folder, SETTINGS_FILE), JSON.stringify({ theme: 'dark', effort: 'extreme', model: 42 }));
    expect(await new SettingsStore(folder).get()).toMatchObject({
      theme: 'dark',
      effort: DEFAULT_SETTINGS.effort,
      model: DEFAULT_SETTINGS.model,
    });
  });

  it('sends on Enter by default, keeps Ctrl/Cmd+Enter once chosen, and reads an unknown send key as Enter', async () => {
    expect((await new SettingsStore(folder).get()).send_key).toBe('enter');
    await new SettingsStore(folder).update({ send_key: 'ctrl-enter' });
    expect((await new SettingsStore(folder).get()).send_key).toBe('ctrl-enter');
    await writeFile(path.join(folder, SETTINGS_FILE), JSON.stringify({ send_key: 'shift-enter', theme: 'dark' }));
    expect(await new SettingsStore(folder).get()).toMatchObject({ send_key: 'enter', theme: 'dark' });
  });

  it('reads a file that is not JSON as the defaults', async () => {
    await writeFile(path.join(folder, SETTINGS_FILE), '{ nope');
    expect(await new SettingsStore(folder).get()).toEqual(DEFAULT_SETTINGS);
  });

  it('shows a run-only override without writing it', async () => {
    const store = new SettingsStore(folder, { overrides: { model: 'openai:gpt-5' } });
    await store.update({ theme: 'dark' });
    expect(await store.get()).toMatchObject({ model: 'openai:gpt-5', theme: 'dark' });
    expect(JSON.parse(await readFile(store.file, 'utf8'))).toMatchObject({ model: 'demo' });
  });

  it('drops the override once the person picks that setting', async () => {
    const store = new SettingsStore(folder, { overrides: { model: 'openai:gpt-5' } });
    await store.update({ model: 'demo' });
    expect((await store.get()).model).toBe('demo');
  });

  it('keeps an update made while the file is first being read', async () => {
    const store = new SettingsStore(folder);
    const [updated] = await Promise.all([store.update({ theme: 'dark' }), store.get()]);
    expect(updated.theme).toBe('dark');
    expect((await store.get()).theme).toBe('dark');
  });

  it('saves again after a write that failed, and leaves no temp file behind', async () => {
    const home = path.join(folder, 'home');
    const store = new SettingsStore(home);
    await store.get();
    // A file where the settings folder should be: the next save cannot create it.
    await writeFile(home, '');
    await expect(store.update({ theme: 'dark' })).rejects.toThrow(`Cannot save the settings to ${store.file}`);
    await rm(home);
    await store.update({ theme: 'light' });
    expect(await new SettingsStore(home).get()).toMatchObject({ theme: 'light' });
    expect(await readdir(home)).toEqual([SETTINGS_FILE]);
  });
});
