import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { safeStorage } from 'electron';
import { z } from 'zod';
import type { ProviderId, Result } from '../../protocol/api.ts';
import { EnvKeyStore, KEY_ENV, type KeyStore } from '../host/key-store.ts';

// API keys typed into the panel, encrypted with the OS keychain through safeStorage and kept in
// keys.json (0600) in the user-data folder. A key from the environment is used when none is stored.

const fileSchema = z.object({ keys: z.record(z.string(), z.string()) });

export const KEYS_FILE = 'keys.json';

export class SafeStorageKeyStore implements KeyStore {
  private readonly file: string;
  private readonly fallback: EnvKeyStore;
  private readonly platform: NodeJS.Platform;

  constructor(folder: string, options: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {}) {
    this.file = path.join(folder, KEYS_FILE);
    this.fallback = new EnvKeyStore(options.env);
    this.platform = options.platform ?? process.platform;
  }

  async get(provider: ProviderId): Promise<string | undefined> {
    const sealed = (await this.read())[provider];
    if (sealed !== undefined && safeStorage.isEncryptionAvailable()) {
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch (error) {
        console.error(
          `The stored ${provider} key cannot be decrypted (${(error as Error).message}); enter it again in Settings.`,
        );
      }
    }
    return this.fallback.get(provider);
  }

  async set(provider: ProviderId, key: string | null): Promise<Result<void>> {
    const keys = await this.read();
    if (key === null) {
      delete keys[provider];
      await this.write(keys);
      return { ok: true, value: undefined };
    }
    const unavailable = this.unavailable();
    if (unavailable) return { ok: false, error: `${unavailable} Set ${KEY_ENV[provider]} in the environment instead.` };
    keys[provider] = safeStorage.encryptString(key).toString('base64');
    await this.write(keys);
    return { ok: true, value: undefined };
  }

  /** Why keys cannot be stored safely here, or null. */
  private unavailable(): string | null {
    if (!safeStorage.isEncryptionAvailable()) return 'This system offers no encryption for stored keys.';
    // On Linux without a keyring, safeStorage falls back to a hard-coded password: not a secret.
    if (this.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
      return 'No keyring (GNOME Keyring or KWallet) is running, so a stored key would not be protected.';
    }
    return null;
  }

  private async read(): Promise<Partial<Record<ProviderId, string>>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text));
      if (!parsed.success) return {};
      const keys: Partial<Record<ProviderId, string>> = {};
      for (const provider of Object.keys(KEY_ENV) as ProviderId[]) {
        const sealed = parsed.data.keys[provider];
        if (sealed !== undefined) keys[provider] = sealed;
      }
      return keys;
    } catch {
      return {};
    }
  }

  private async write(keys: Partial<Record<ProviderId, string>>): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.file);
  }
}
