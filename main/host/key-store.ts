import type { ProviderId, Result } from '../../protocol/api.ts';
import { KEYED_PROVIDERS, PROVIDER_IDS } from '../../protocol/providers.ts';

// Where API keys live. The Electron shell encrypts them with safeStorage (main/electron/); the web
// host and the CLI read them from the environment only, so no key is ever written in plain text.

/** The variable each provider's key is read from (protocol/providers.ts). */
export const KEY_ENV = Object.fromEntries(
  KEYED_PROVIDERS.map((provider) => [provider.id, provider.keyVariable]),
) as Readonly<Record<ProviderId, string>>;

export interface KeyStore {
  /** Whether a key typed into the panel can be kept; false: keys come from the environment alone. */
  readonly storesKeys: boolean;
  get(provider: ProviderId): Promise<string | undefined>;
  /** `null` forgets the key. Refusals are values with what to do instead. */
  set(provider: ProviderId, key: string | null): Promise<Result<void>>;
}

export async function keyPresence(store: KeyStore): Promise<Record<ProviderId, boolean>> {
  const entries = await Promise.all(
    PROVIDER_IDS.map(async (provider) => [provider, (await store.get(provider)) !== undefined] as const),
  );
  return Object.fromEntries(entries) as Record<ProviderId, boolean>;
}

/** Keys from the environment; the panel cannot change them. */
export class EnvKeyStore implements KeyStore {
  readonly storesKeys = false;
  private readonly env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.env = env;
  }

  async get(provider: ProviderId): Promise<string | undefined> {
    const value = this.env[KEY_ENV[provider]]?.trim();
    return value ? value : undefined;
  }

  async set(provider: ProviderId): Promise<Result<void>> {
    return {
      ok: false,
      error: `Keys cannot be stored from a browser window. Set ${KEY_ENV[provider]} in the environment and restart \`aether serve\`, or use the desktop app, which keeps keys encrypted.`,
    };
  }
}
