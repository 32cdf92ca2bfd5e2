import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_FILE, SettingsFileError, SettingsStore } from './settings-store.ts';

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

// A person's deny rules, with a comma after the last property: the error is at the closing brace, 5:1.
const TRAILING_COMMA = `{
  "permission_mode": "auto",
  "permission_rules": { "allow": [], "ask": [], "deny": ["exec(rm *)"] },
  "exec_env_deny": ["AWS_*"],
}
`;

describe('a settings file the app cannot use', () => {
  it('is refused with the file and the line:column where it goes wrong, never read as the defaults', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    await writeFile(file, TRAILING_COMMA);
    const store = new SettingsStore(folder);
    const refused = store.get();
    await expect(refused).rejects.toBeInstanceOf(SettingsFileError);
    await expect(refused).rejects.toThrow(`${file}:5:1`);
    await expect(store.readable()).rejects.toThrow(/line 5, column 1.*a comma before '\}'/);
    const status = await store.status();
    expect(status.unreadable).toContain(`${file}:5:1`);
    expect(status.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('refuses to save over it, leaving its bytes as they were and no temp file', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    await writeFile(file, TRAILING_COMMA);
    const store = new SettingsStore(folder);
    await store.status();
    await expect(store.update({ theme: 'dark' })).rejects.toThrow(`Settings not saved: The settings file ${file}`);
    expect(await readFile(file, 'utf8')).toBe(TRAILING_COMMA);
    expect(await readdir(folder)).toEqual([SETTINGS_FILE]);
  });

  it('reads the file again once it is fixed, without a restart', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    await writeFile(file, TRAILING_COMMA);
    const store = new SettingsStore(folder);
    await expect(store.get()).rejects.toThrow(SettingsFileError);
    await writeFile(file, TRAILING_COMMA.replace('],\n}', ']\n}'));
    expect(await store.readable()).toMatchObject({
      permission_mode: 'auto',
      permission_rules: { deny: ['exec(rm *)'] },
      exec_env_deny: ['AWS_*'],
    });
    expect((await store.status()).unreadable).toBeNull();
  });

  it('keeps the settings read before the file broke, refuses a save and a new start, and leaves the file alone', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    await writeFile(file, JSON.stringify({ theme: 'dark', exec_env_deny: ['AWS_*'] }));
    const store = new SettingsStore(folder);
    expect(await store.get()).toMatchObject({ theme: 'dark' });
    await writeFile(file, TRAILING_COMMA);
    await expect(store.update({ effort: 'high' })).rejects.toThrow(`${file}:5:1`);
    expect(await readFile(file, 'utf8')).toBe(TRAILING_COMMA);
    expect(await store.get()).toMatchObject({ theme: 'dark', exec_env_deny: ['AWS_*'], effort: 'medium' });
    await expect(store.readable()).rejects.toThrow(`${file}:5:1`);
    expect((await store.status()).unreadable).toContain(`${file}:5:1`);
  });

  it('refuses JSON that is not an object, naming what it holds', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    await writeFile(file, '["exec(rm *)"]');
    const store = new SettingsStore(folder);
    await expect(store.get()).rejects.toThrow(`The settings file ${file} holds a list, not a JSON object`);
    await expect(store.update({ theme: 'dark' })).rejects.toThrow(SettingsFileError);
    expect(await readFile(file, 'utf8')).toBe('["exec(rm *)"]');
  });

  it('reads an empty file as the defaults: there is nothing in it to lose', async () => {
    await writeFile(path.join(folder, SETTINGS_FILE), '\n');
    expect(await new SettingsStore(folder).readable()).toEqual(DEFAULT_SETTINGS);
  });
});

describe('values of the settings file that are not used', () => {
  it('names a deny list that is not a list and a deny rule that means nothing, and applies the rest', async () => {
    await writeFile(
      path.join(folder, SETTINGS_FILE),
      JSON.stringify({
        permission_rules: { deny: ['exec(rm *)', 'delete(everything)'], denny: ['write(**)'] },
        exec_env_deny: 'AWS_*',
        exec_env_allow: ['HOME', 'not a name'],
      }),
    );
    const store = new SettingsStore(folder);
    expect(await store.readable()).toMatchObject({
      permission_rules: { allow: [], ask: [], deny: ['exec(rm *)'] },
      exec_env_allow: ['HOME'],
    });
    expect((await store.get()).exec_env_deny).toBeUndefined();
    const { ignored } = await store.status();
    expect(ignored).toEqual(
      expect.arrayContaining([
        expect.stringContaining('permission_rules.deny: "delete(everything)" is not a permission rule'),
        expect.stringContaining('permission_rules.denny is not a list the app knows'),
        expect.stringContaining('exec_env_deny must be a list of variable names'),
        expect.stringContaining('exec_env_allow: "not a name" is not a variable name'),
      ]),
    );
  });

  it('keeps what it does not use in the file when another setting is saved', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    const written = {
      effort: 'extreme',
      exec_env_deny: ['AWS_*', 'not a name'],
      permission_rules: { deny: ['exec(rm *)', 'delete(everything)'] },
      from_a_newer_version: { on: true },
    };
    await writeFile(file, JSON.stringify(written));
    const store = new SettingsStore(folder);
    await store.update({ theme: 'dark' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ ...written, theme: 'dark' });
    expect((await store.status()).ignored).toHaveLength(4);
    await store.update({ effort: 'high' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ effort: 'high' });
    expect((await store.status()).ignored).toHaveLength(3);
  });

  it('keeps a hand edit made while the app runs when the panel saves another setting', async () => {
    const file = path.join(folder, SETTINGS_FILE);
    const store = new SettingsStore(folder);
    await store.update({ theme: 'dark' });
    const edited = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...edited, exec_env_deny: ['*_TOKEN'] }));
    await store.update({ effort: 'high' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      theme: 'dark',
      effort: 'high',
      exec_env_deny: ['*_TOKEN'],
    });
    expect((await store.get()).exec_env_deny).toEqual(['*_TOKEN']);
  });
});
