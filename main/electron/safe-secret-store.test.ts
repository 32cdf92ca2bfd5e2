import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, safeStorage } from '../../test/fake-electron.ts';
import { SafeStorageSecretStore, SECRETS_FILE } from './safe-secret-store.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

let folder: string;

beforeEach(async () => {
  resetFakeElectron();
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-secrets-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('safeStorage store of MCP secrets', () => {
  it('keeps a secret sealed on disk, in a file only the owner can read, and forgets it on null', async () => {
    const store = new SafeStorageSecretStore(folder, { env: {}, platform: 'linux' });
    expect(store.storable).toBe(true);
    expect(await store.set('GITHUB_TOKEN', 'ghp-secret-value')).toEqual({ ok: true, value: undefined });
    const text = await readFile(path.join(folder, SECRETS_FILE), 'utf8');
    expect(text).toContain('GITHUB_TOKEN');
    expect(text).not.toContain('ghp-secret-value');
    expect((await stat(path.join(folder, SECRETS_FILE))).mode & 0o777).toBe(0o600);
    expect(await new SafeStorageSecretStore(folder, { env: {} }).get('GITHUB_TOKEN')).toBe('ghp-secret-value');
    expect(await store.from('GITHUB_TOKEN')).toBe('app');
    await store.set('GITHUB_TOKEN', null);
    expect(await store.get('GITHUB_TOKEN')).toBeUndefined();
    expect(await store.from('GITHUB_TOKEN')).toBeNull();
  });

  it('uses the environment variable of the same name when nothing is stored', async () => {
    const store = new SafeStorageSecretStore(folder, { env: { GITHUB_TOKEN: 'from-env' } });
    expect(await store.get('GITHUB_TOKEN')).toBe('from-env');
    expect(await store.from('GITHUB_TOKEN')).toBe('environment');
  });

  it('refuses to store a secret on Linux without a keyring, naming the variable to set instead', async () => {
    safeStorage.backend = 'basic_text';
    const answer = await new SafeStorageSecretStore(folder, { env: {}, platform: 'linux' }).set('GITHUB_TOKEN', 'x');
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining('keyring') });
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining('GITHUB_TOKEN') });
  });
});
