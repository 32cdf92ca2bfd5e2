import { setTimeout as delay } from 'node:timers/promises';
import type { ProviderName } from '../../protocol/providers.ts';
import { MODEL_PROVIDERS, type ModelProvider, type ModelSpec } from './providers.ts';
import { createSdkAdapter, type Sleep } from './sdk-adapter.ts';
import { ModelConfigError, type ModelAdapter } from './types.ts';
import type { Fetch } from './wire-watch.ts';

// A model id's provider record → a configured SDK adapter. Keys come from the options (the app's
// settings) first, then from the environment; a missing one is a configuration error that names
// where to put it.

export interface ModelAdapterOptions {
  /** Keys from the app's settings; they win over the environment. */
  keys?: Partial<Record<ProviderName, string>>;
  /** Where the providers' key variables (and base URL variables) are read. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Override the APIs' addresses (tests point them at the fixture server). */
  baseURLs?: Partial<Record<ProviderName, string>>;
  /** The HTTP client underneath the SDK. Default: the global fetch. */
  fetch?: Fetch;
  /** No bytes for this long fails the step. Default 60 000. */
  stallTimeoutMs?: number;
  /** One request, from sending it to the end of its stream, may take this long. Default 600 000 (10 min). */
  requestTimeoutMs?: number;
  /** Retries before a stream starts. Default 2. */
  maxRetries?: number;
  /** The longest `retry-after` waited for. Default 60 000. */
  maxRetryAfterMs?: number;
  /** How retries wait (tests record the delays). Default: a timer that the step's signal cancels. */
  sleep?: Sleep;
  /** The demo model's pause between streamed events. Default 15 ms. */
  demoChunkDelayMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

function providerKey(
  provider: ModelProvider,
  id: string,
  options: ModelAdapterOptions,
  env: Record<string, string | undefined>,
): string | undefined {
  const key = options.keys?.[provider.id] ?? (provider.keyVariable === null ? undefined : env[provider.keyVariable]);
  if (provider.needsKey && (key === undefined || key.trim() === '')) {
    throw new ModelConfigError(
      `No ${provider.label} API key for model "${id}": set the ${provider.keyVariable} environment variable, or save the key in ÆtherCodex's settings.`,
    );
  }
  return key;
}

function providerBaseURL(
  provider: ModelProvider,
  spec: Exclude<ModelSpec, { family: 'demo' }>,
  options: ModelAdapterOptions,
  env: Record<string, string | undefined>,
): string {
  if ('baseURL' in spec) return spec.baseURL;
  const api = provider.baseURL;
  return options.baseURLs?.[provider.id] ?? (api === null ? undefined : (env[api.variable] ?? api.fallback)) ?? '';
}

export function createProviderAdapter(
  id: string,
  spec: Exclude<ModelSpec, { family: 'demo' }>,
  options: ModelAdapterOptions,
): ModelAdapter {
  const env = options.env ?? process.env;
  const provider = MODEL_PROVIDERS[spec.family];
  const apiKey = providerKey(provider, id, options, env);
  const baseURL = providerBaseURL(provider, spec, options, env);
  const api = provider.reasoningAPI?.uses(spec.model) ? provider.reasoningAPI : provider;
  return createSdkAdapter({
    id,
    family: spec.family,
    terminalLine: api.terminalLine,
    streamEvents: api.streamEvents,
    ...(api.callOptions === undefined ? {} : { callOptions: api.callOptions }),
    takesReasoning: provider.takesReasoning(spec.model),
    model: (fetch) => api.languageModel(spec.model, { apiKey, baseURL, fetch }),
    fetch: options.fetch ?? globalThis.fetch,
    stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? 2,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    sleep: options.sleep ?? defaultSleep,
  });
}
