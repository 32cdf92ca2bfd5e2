import { createModelAdapter, type ModelAdapterOptions } from '../model/index.ts';
import type { KeyStore } from './key-store.ts';
import type { ModelCatalog } from './panel-service.ts';

// The models the panel offers, and how it makes an adapter for one: keys from the host's key
// store (safeStorage in Electron, the environment elsewhere), everything else from the model layer.

export const SUGGESTED_MODELS: readonly string[] = [
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
    create: async (id: string, keys: KeyStore) => {
      const [anthropic, openai] = await Promise.all([keys.get('anthropic'), keys.get('openai')]);
      const stored = { ...(anthropic ? { anthropic } : {}), ...(openai ? { openai } : {}) };
      return createModelAdapter(id, { ...options.adapter, keys: { ...stored, ...options.adapter?.keys } });
    },
  };
}
