import { setTimeout as delay } from 'node:timers/promises';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createSdkAdapter, type Sleep } from './sdk-adapter.ts';
import type { ProviderFamily } from './sdk-prompt.ts';
import { ModelConfigError, type ModelAdapter } from './types.ts';
import type { Fetch } from './wire-watch.ts';

// Model ids → configured SDK providers. Keys come from the options (the app's settings) first,
// then from the environment; a missing one is a configuration error that names where to put it.

export interface ModelAdapterOptions {
  /** Keys from the app's settings; they win over the environment. */
  keys?: { anthropic?: string; openai?: string; compat?: string };
  /** Where `ANTHROPIC_API_KEY`, `OPENAI_API_KEY` (and `*_BASE_URL`) are read. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Override the APIs' addresses (tests point them at the fixture server). */
  baseURLs?: { anthropic?: string; openai?: string };
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

export type ModelSpec =
  | { family: 'anthropic'; model: string }
  | { family: 'openai'; model: string }
  | { family: 'compat'; model: string; baseURL: string }
  | { family: 'demo' };

const ID_FORMS = 'anthropic:<model>, openai:<model>, compat:<baseURL>#<model> or demo';

/** Parses a model id; the error says which forms exist. */
export function parseModelId(id: string): { ok: true; spec: ModelSpec } | { ok: false; error: string } {
  if (id === 'demo') return { ok: true, spec: { family: 'demo' } };
  const colon = id.indexOf(':');
  const prefix = colon < 0 ? '' : id.slice(0, colon);
  const rest = colon < 0 ? '' : id.slice(colon + 1);
  if (prefix === 'anthropic' && rest.trim() !== '') return { ok: true, spec: { family: 'anthropic', model: rest } };
  if (prefix === 'openai' && rest.trim() !== '') return { ok: true, spec: { family: 'openai', model: rest } };
  if (prefix === 'compat') {
    const hash = rest.lastIndexOf('#');
    const baseURL = hash < 0 ? '' : rest.slice(0, hash);
    const model = hash < 0 ? '' : rest.slice(hash + 1);
    let valid = false;
    try {
      valid = ['http:', 'https:'].includes(new URL(baseURL).protocol);
    } catch {
      valid = false;
    }
    if (!valid || model.trim() === '') {
      return {
        ok: false,
        error: `Model id "${id}" is not of the form compat:<baseURL>#<model>, e.g. compat:http://127.0.0.1:11434/v1#llama3.2.`,
      };
    }
    return { ok: true, spec: { family: 'compat', model, baseURL } };
  }
  return { ok: false, error: `Unknown model id "${id}": use ${ID_FORMS}.` };
}

const KEY_SOURCES = {
  anthropic: { env: 'ANTHROPIC_API_KEY', label: 'Anthropic' },
  openai: { env: 'OPENAI_API_KEY', label: 'OpenAI' },
} as const;

function requireKey(
  family: 'anthropic' | 'openai',
  id: string,
  options: ModelAdapterOptions,
  env: Record<string, string | undefined>,
): string {
  const source = KEY_SOURCES[family];
  const key = options.keys?.[family] ?? env[source.env];
  if (key === undefined || key.trim() === '') {
    throw new ModelConfigError(
      `No ${source.label} API key for model "${id}": set the ${source.env} environment variable, or save the key in ÆtherCodex's settings.`,
    );
  }
  return key;
}

/** The SSE line that closes a complete stream on each wire. */
const TERMINAL_LINE: Record<ProviderFamily, string> = {
  anthropic: 'event: message_stop',
  openai: 'data: [DONE]',
  compat: 'data: [DONE]',
};

/**
 * OpenAI answers HTTP 400 to `reasoning_effort` on models that do not reason (GPT-4.x, GPT-4o, the
 * chat variants); the o-series and GPT-5 onwards take it.
 */
export function openaiTakesReasoning(model: string): boolean {
  if (/^o\d/.test(model)) return true;
  const major = /^gpt-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 5 && !/-chat/.test(model);
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

export function createProviderAdapter(
  id: string,
  spec: Exclude<ModelSpec, { family: 'demo' }>,
  options: ModelAdapterOptions,
): ModelAdapter {
  const env = options.env ?? process.env;
  const common = {
    id,
    family: spec.family,
    terminalLine: TERMINAL_LINE[spec.family],
    takesReasoning: spec.family !== 'openai' || openaiTakesReasoning(spec.model),
    fetch: options.fetch ?? globalThis.fetch,
    stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? 2,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    sleep: options.sleep ?? defaultSleep,
  };
  if (spec.family === 'anthropic') {
    const apiKey = requireKey('anthropic', id, options, env);
    const baseURL = options.baseURLs?.anthropic ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com/v1';
    return createSdkAdapter({
      ...common,
      model: (fetch) => createAnthropic({ apiKey, baseURL, fetch }).languageModel(spec.model),
    });
  }
  if (spec.family === 'openai') {
    const apiKey = requireKey('openai', id, options, env);
    const baseURL = options.baseURLs?.openai ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
    // The chat-completions API, which every OpenAI-compatible server also speaks.
    return createSdkAdapter({ ...common, model: (fetch) => createOpenAI({ apiKey, baseURL, fetch }).chat(spec.model) });
  }
  // Local servers (Ollama, LM Studio, vLLM, llama.cpp) usually need no key.
  const apiKey = options.keys?.compat;
  return createSdkAdapter({
    ...common,
    model: (fetch) =>
      createOpenAICompatible({
        name: 'compat',
        baseURL: spec.baseURL,
        fetch,
        includeUsage: true,
        ...(apiKey === undefined ? {} : { apiKey }),
      }).chatModel(spec.model),
  });
}
