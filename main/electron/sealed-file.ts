import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { safeStorage } from 'electron';
import { z } from 'zod';

// Values encrypted with the OS keychain through safeStorage, kept by name in one JSON file (0600)
// under one field: the API keys (`keys.json`, field `keys`) and the secrets mcp.json names
// (`mcp-secrets.json`, field `secrets`).

export class SealedFile {
  private readonly file: string;
  private readonly field: string;
  private readonly platform: NodeJS.Platform;

  constructor(file: string, field: string, platform: NodeJS.Platform = process.platform) {
    this.file = file;
    this.field = field;
    this.platform = platform;
  }

  /** The value stored under this name, or undefined (none, or it cannot be decrypted: `onError` says why). */
  async open(name: string, onError: (message: string) => void): Promise<string | undefined> {
    const sealed = (await this.read())[name];
    if (sealed === undefined || !safeStorage.isEncryptionAvailable()) return undefined;
    try {
      return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
    } catch (error) {
      onError((error as Error).message);
      return undefined;
    }
  }

  /** Stores (or with null forgets) a value; the answer is why it cannot be stored safely, or null. */
  async seal(name: string, value: string | null): Promise<string | null> {
    const values = await this.read();
    if (value === null) {
      delete values[name];
      await this.write(values);
      return null;
    }
    const unavailable = this.unavailable();
    if (unavailable) return unavailable;
    values[name] = safeStorage.encryptString(value).toString('base64');
    await this.write(values);
    return null;
  }

  /** Why values cannot be stored safely here, or null. */
  private unavailable(): string | null {
    if (!safeStorage.isEncryptionAvailable()) return 'This system offers no encryption for stored keys and secrets.';
    // On Linux without a keyring, safeStorage falls back to a hard-coded password: not a secret.
    if (this.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
      return 'No keyring (GNOME Keyring or KWallet) is running, so a stored key or secret would not be protected.';
    }
    return null;
  }

  private async read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = z.object({ [this.field]: z.record(z.string(), z.string()) }).safeParse(JSON.parse(text));
      return parsed.success ? { ...parsed.data[this.field] } : {};
    } catch {
      return {};
    }
  }

  private async write(values: Record<string, string>): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify({ [this.field]: values }, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.file);
  }
}
