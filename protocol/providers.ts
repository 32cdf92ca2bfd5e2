import { z } from 'zod';

// The model providers, each declared once: what every part of the app knows of one, the panel
// included — its name, how its model ids are written, where its key comes from and whether it
// needs one. Main's records (main/model/providers.ts) add how it is reached; the Settings screen's
// key fields, the welcome offer, the key store and the environment commands lose all derive from
// this list.

export interface ProviderInfo {
  /** The prefix of its model ids (`anthropic:…`), and its name in the key store. */
  readonly id: string;
  /** Its name in sentences and on the Settings screen. */
  readonly label: string;
  /** How one of its model ids is written. */
  readonly idForm: string;
  /** The environment variable its key is read from; null when it has none. */
  readonly keyVariable: string | null;
  /** Whether a model of it cannot answer without a key (the panel offers a key field for it). */
  readonly needsKey: boolean;
}

export const PROVIDERS = [
  {
    id: 'anthropic',
    label: 'Anthropic',
    idForm: 'anthropic:<model>',
    keyVariable: 'ANTHROPIC_API_KEY',
    needsKey: true,
  },
  {
    id: 'openai',
    label: 'OpenAI',
    // The Responses API for its reasoning models, chat completions for the others.
    idForm: 'openai:<model>',
    keyVariable: 'OPENAI_API_KEY',
    needsKey: true,
  },
  {
    // Any OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp); local ones need no key.
    id: 'compat',
    label: 'OpenAI-compatible server',
    idForm: 'compat:<baseURL>#<model>',
    keyVariable: null,
    needsKey: false,
  },
] as const satisfies readonly ProviderInfo[];

type Provider = (typeof PROVIDERS)[number];

/** A provider's id: `anthropic`, `openai` or `compat`. */
export type ProviderName = Provider['id'];

/** A provider whose key the app keeps (the key store, the Settings screen's key fields). */
export type ProviderId = Extract<Provider, { needsKey: true }>['id'];

const keyed = (provider: Provider): provider is Extract<Provider, { needsKey: true }> => provider.needsKey;

/** The providers a key is kept for, in the order the Settings screen shows them. */
export const KEYED_PROVIDERS = PROVIDERS.filter(keyed);

export const PROVIDER_IDS: readonly ProviderId[] = KEYED_PROVIDERS.map((provider) => provider.id);
export const providerIdSchema = z.enum(PROVIDER_IDS);

/** The provider a model id names by its prefix (`compat:http://…#llama3.2` → compat); undefined for the demo and unknown ids. */
export function providerOfModelId(modelId: string): Provider | undefined {
  const colon = modelId.indexOf(':');
  return colon < 0 ? undefined : PROVIDERS.find((provider) => provider.id === modelId.slice(0, colon));
}

/**
 * A model id's parts: its provider, the server it names when the provider's ids name one
 * (`compat:<baseURL>#<model>`, the model optional while it is being typed), and the model's name.
 * Undefined for the demo, an unknown prefix, or an id with nothing after it.
 */
export function modelIdParts(modelId: string): { provider: Provider; server?: string; model?: string } | undefined {
  const provider = providerOfModelId(modelId);
  if (provider === undefined) return undefined;
  const rest = modelId.slice(provider.id.length + 1);
  if (!provider.idForm.includes('<baseURL>')) return /^.+$/.test(rest) ? { provider, model: rest } : undefined;
  const named = /^([^#\s]+)(?:#(.+))?$/.exec(rest);
  if (!named?.[1]) return undefined;
  return { provider, server: named[1], ...(named[2] === undefined ? {} : { model: named[2] }) };
}

/** A keyed provider's label (`anthropic` → Anthropic). */
export function providerLabel(id: ProviderId): string {
  return KEYED_PROVIDERS.find((provider) => provider.id === id)?.label ?? id;
}

/** Every form a model id takes, for messages: `anthropic:<model>, openai:<model>, compat:<baseURL>#<model> or demo`. */
export const MODEL_ID_FORMS = `${PROVIDERS.map((provider) => provider.idForm).join(', ')} or demo`;
