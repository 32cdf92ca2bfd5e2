import path from 'node:path';
import type { Result } from '../../protocol/api.ts';
import { EnvSecretStore } from '../agent/mcp.ts';
import type { McpSecretStore } from '../tools/mcp/mcp-secrets.ts';
import { SealedFile } from './sealed-file.ts';

// The secrets mcp.json names (`${secret:NAME}`), set on the MCP servers screen: encrypted with the
// OS keychain through safeStorage and kept in mcp-secrets.json (0600) in the user-data folder. The
// environment variable of the same name is used when none is stored.

export const SECRETS_FILE = 'mcp-secrets.json';

export class SafeStorageSecretStore implements McpSecretStore {
  readonly storable = true;
  private readonly sealed: SealedFile;
  private readonly fallback: EnvSecretStore;

  constructor(folder: string, options: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {}) {
    this.sealed = new SealedFile(path.join(folder, SECRETS_FILE), 'secrets', options.platform);
    this.fallback = new EnvSecretStore(options.env);
  }

  async get(name: string): Promise<string | undefined> {
    const stored = await this.sealed.open(name, (why) =>
      console.error(
        `The stored MCP secret ${name} cannot be decrypted (${why}); set it again on the MCP servers screen.`,
      ),
    );
    return stored ?? this.fallback.get(name);
  }

  async from(name: string): Promise<'app' | 'environment' | null> {
    if ((await this.sealed.open(name, () => undefined)) !== undefined) return 'app';
    return this.fallback.from(name);
  }

  async set(name: string, value: string | null): Promise<Result<void>> {
    const unavailable = await this.sealed.seal(name, value);
    if (unavailable) return { ok: false, error: `${unavailable} Set the environment variable ${name} instead.` };
    return { ok: true, value: undefined };
  }
}
