import path from 'node:path';
import type { ProviderId, Result } from '../../protocol/api.ts';
import { EnvKeyStore, KEY_ENV, type KeyStore } from '../host/key-store.ts';
import { SealedFile } from './sealed-file.ts';

// API keys typed into the panel, encrypted with the OS keychain through safeStorage and kept in
// keys.json (0600) in the user-data folder. A key from the environment is used when none is stored.

export const KEYS_FILE = 'keys.json';

export class SafeStorageKeyStore implements KeyStore {
  readonly storesKeys = true;
  private readonly sealed: SealedFile;
  private readonly fallback: EnvKeyStore;

  constructor(folder: string, options: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {}) {
    this.sealed = new SealedFile(path.join(folder, KEYS_FILE), 'keys', options.platform);
    this.fallback = new EnvKeyStore(options.env);
  }

  async get(provider: ProviderId): Promise<string | undefined> {
    const stored = await this.sealed.open(provider, (why) =>
      console.error(`The stored ${provider} key cannot be decrypted (${why}); enter it again in Settings.`),
    );
    return stored ?? this.fallback.get(provider);
  }

  async set(provider: ProviderId, key: string | null): Promise<Result<void>> {
    if (!(provider in KEY_ENV)) return { ok: false, error: `There is no provider named ${provider}.` };
    const unavailable = await this.sealed.seal(provider, key);
    if (unavailable) return { ok: false, error: `${unavailable} Set ${KEY_ENV[provider]} in the environment instead.` };
    return { ok: true, value: undefined };
  }
}
