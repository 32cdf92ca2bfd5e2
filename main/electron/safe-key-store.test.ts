import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, safeStorage } from '../../test/fake-electron.ts';
import { KEYS_FILE, SafeStorageKeyStore } from './safe-key-store.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

let folder: string;

beforeEach(async () => {
  resetFakeElectron();
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-keys-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('safeStorage key store', () => {
  it('says it keeps keys typed into the panel, so the desktop Settings offer key fields', () => {
    expect(new SafeStorageKeyStore(folder, { env: {} }).storesKeys).toBe(true);
  });

  it('keeps a key sealed on disk, in a file only the owner can read', async () => {
    const store = new SafeStorageKeyStore(folder, { env: {}, platform: 'linux' });
    expect(await store.set('anthropic', 'sk-ant-secret')).toEqual({ ok: true, value: undefined });
    const text = await readFile(path.join(folder, KEYS_FILE), 'utf8');
    expect(text).not.toContain('sk-ant-secret');
    expect((await stat(path.join(folder, KEYS_FILE))).mode & 0o777).toBe(0o600);
    expect(await new SafeStorageKeyStore(folder, { env: {} }).get('anthropic')).toBe('sk-ant-secret');
  });

  it('forgets a key set to null', async () => {
    const store = new SafeStorageKeyStore(folder, { env: {} });
    await store.set('openai', 'sk-openai');
    await store.set('openai', null);
    expect(await store.get('openai')).toBeUndefined();
  });

  it('falls back to the environment when nothing is stored', async () => {
    const store = new SafeStorageKeyStore(folder, { env: { OPENAI_API_KEY: 'from-env' } });
    expect(await store.get('openai')).toBe('from-env');
  });

  it('refuses to store a key when the system cannot encrypt it', async () => {
    safeStorage.available = false;
    const answer = await new SafeStorageKeyStore(folder, { env: {} }).set('anthropic', 'sk');
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it('refuses to store a key on Linux without a keyring', async () => {
    safeStorage.backend = 'basic_text';
    const answer = await new SafeStorageKeyStore(folder, { env: {}, platform: 'linux' }).set('openai', 'sk');
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining('keyring') });
  });
});
