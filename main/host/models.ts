import { KEYED_PROVIDERS, providerOfModelId } from '../../protocol/providers.ts';
import { createModelAdapter, parseModelId, type ModelAdapterOptions } from '../model/index.ts';
import type { KeyStore } from './key-store.ts';
import type { ModelCatalog } from './panel-service-options.ts';

// The models the panel offers, and how it makes an adapter for one: keys from the host's key
// store (safeStorage in Electron, the environment elsewhere), everything else from the model layer.

const SUGGESTED_MODELS: readonly string[] = [
  'demo',
  'anthropic:claude-sonnet-4-5',
  'anthropic:claude-opus-4-1',
  'anthropic:claude-haiku-4-5',
  'openai:gpt-5',
  'openai:gpt-5-mini',
];

export function modelCatalog(options: { adapter?: ModelAdapterOptions; extra?: string[] } = {}): ModelCatalog {
  const ids = [...new Set([...SUGGESTED_MODELS, ...(options.extra ?? [])])];
  return {
    ids: () => [...ids],
    create: async (id: string, keys: KeyStore, create: { requestTimeoutMs?: number } = {}) => {
      const found = await Promise.all(
        KEYED_PROVIDERS.map(async (provider) => [provider.id, await keys.get(provider.id)] as const),
      );
      const stored = Object.fromEntries(found.filter(([, key]) => key));
      return createModelAdapter(id, {
        ...options.adapter,
        ...create,
        keys: { ...stored, ...options.adapter?.keys },
      });
    },
    // Where `create` finds a key: the adapter options, the key store, then the environment.
    missingKey: async (id: string, keys: KeyStore) => {
      const provider = providerOfModelId(id);
      if (!parseModelId(id).ok || provider === undefined || !provider.needsKey) return null;
      if (options.adapter?.keys?.[provider.id]?.trim() || (await keys.get(provider.id)) !== undefined) return null;
      const env = options.adapter?.env ?? process.env;
      return env[provider.keyVariable]?.trim() ? null : provider.id;
    },
  };
}
