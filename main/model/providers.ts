import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { anthropicModels } from 'tokenlens/providers/anthropic';
import { openaiModels } from 'tokenlens/providers/openai';
import { MODEL_ID_FORMS, PROVIDERS, type ProviderInfo, type ProviderName } from '../../protocol/providers.ts';
import type { SdkLanguageModel } from './sdk-prompt.ts';
import type { ImageTokens } from './token-estimate.ts';
import type { Fetch } from './wire-watch.ts';

// One record per model provider: what protocol/providers.ts says of it (name, id form, key), and
// how it is reached — its API's address, its AI SDK model, the stream events it may send, how a
// request's tool results, images and reasoning go on its wire, what an image costs, and where its
// windows and prices come from. Everything provider-specific in the model layer reads it here.

/** A model of a provider's catalog (tokenlens's bundled models.dev data). */
export interface CatalogEntry {
  id: string;
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
}

export interface ModelConnection {
  /** Present whenever the provider `needsKey`. */
  apiKey: string | undefined;
  baseURL: string;
  fetch: Fetch;
}

/** How a provider's models are reached on one of its APIs: the SDK model, its stream's events and end. */
export interface ProviderAPI {
  /** Its AI SDK model; the SDK files reasoning metadata under the provider's id. */
  languageModel(model: string, connection: ModelConnection): SdkLanguageModel;
  /** The stream events the SDK may see (sse-events.ts): these named ones, or chat-completions chunks. */
  readonly streamEvents: { readonly named: readonly string[] } | 'chat-chunks';
  /** The SSE line that closes a complete stream. */
  readonly terminalLine: string;
  /** Provider options every request on this API carries (under the provider's id). */
  readonly callOptions?: Readonly<Record<string, unknown>>;
}

/** The events of this wire the SDK reads; the stream filter passes these and drops the others. */
const RESPONSES_EVENTS = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'error',
] as const;

export interface ModelProvider extends ProviderInfo, ProviderAPI {
  readonly id: ProviderName;
  /** Where its API is: the variable that moves it and the address otherwise; null when the model id names its server. */
  readonly baseURL: { readonly variable: string; readonly fallback: string } | null;
  /** Whether a model takes a reasoning effort at all; when not, the setting is left out of the request. */
  takesReasoning(model: string): boolean;
  /** A failed tool result goes marked as an error (Anthropic's `is_error`); else as its text. */
  readonly toolErrorFlag: boolean;
  /**
   * Where a tool result's images go: inside the result, as a user message after the step's
   * results (a tool message takes none), or nowhere but the text that names them.
   */
  readonly toolImages: 'in-result' | 'after-results' | 'named-only';
  /** Thinking cannot answer tool calls whose message carries none of its signed blocks (that step runs without it). */
  readonly thinkingNeedsSignedBlocks: boolean;
  /** Whether a person's images are sent to it; a message with images to another model is refused before sending. */
  readonly takesImages: boolean;
  /**
   * What one image counts in the estimate before a request goes out (token-estimate.ts): the most
   * one can cost after the provider's own resize, since the estimate does not decode images.
   */
  readonly imageTokens: ImageTokens;
  /**
   * How its prompt cache is asked for (prompt-cache.ts): breakpoints marked in the request
   * (Anthropic), a per-session key beside its automatic prefix cache (OpenAI), or nothing.
   */
  readonly promptCache: 'breakpoints' | 'key' | 'none';
  /**
   * A second API for the models that need it (OpenAI's Responses API for its reasoning models:
   * reasoning summaries, encrypted reasoning carried between steps); the record's own otherwise.
   */
  readonly reasoningAPI?: ProviderAPI & { uses(model: string): boolean };
  /** Windows and prices: its models.dev catalog, or what its server says of its models (server-models.ts). */
  readonly catalog: Readonly<Record<string, CatalogEntry>> | 'server';
}

function declared<N extends ProviderName>(id: N): Extract<(typeof PROVIDERS)[number], { id: N }> {
  const found = PROVIDERS.find((provider) => provider.id === id);
  if (!found) throw new Error(`protocol/providers.ts declares no provider ${id}`);
  return found as Extract<(typeof PROVIDERS)[number], { id: N }>;
}

/**
 * OpenAI answers HTTP 400 to `reasoning_effort` on models that do not reason (GPT-4.x, GPT-4o, the
 * chat variants); the o-series and GPT-5 onwards take it.
 */
export function openaiTakesReasoning(model: string): boolean {
  if (/^o\d/.test(model)) return true;
  const major = /^gpt-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 5 && !/-chat/.test(model);
}

export const MODEL_PROVIDERS: { readonly [N in ProviderName]: ModelProvider & { readonly id: N } } = {
  anthropic: {
    ...declared('anthropic'),
    baseURL: { variable: 'ANTHROPIC_BASE_URL', fallback: 'https://api.anthropic.com/v1' },
    languageModel: (model, { apiKey, baseURL, fetch }) =>
      createAnthropic({ apiKey, baseURL, fetch }).languageModel(model),
    takesReasoning: () => true,
    streamEvents: {
      named: [
        'message_start',
        'message_delta',
        'message_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'error',
      ],
    },
    terminalLine: 'event: message_stop',
    toolErrorFlag: true,
    toolImages: 'in-result',
    thinkingNeedsSignedBlocks: true,
    takesImages: true,
    // ≈ width × height / 750 with the long edge cut to 1 568 px: at most about 1 600.
    imageTokens: { user: 1_600, tool: 1_600 },
    promptCache: 'breakpoints',
    catalog: anthropicModels.models,
  },
  openai: {
    ...declared('openai'),
    baseURL: { variable: 'OPENAI_BASE_URL', fallback: 'https://api.openai.com/v1' },
    // The chat-completions API, which every OpenAI-compatible server also speaks.
    languageModel: (model, { apiKey, baseURL, fetch }) => createOpenAI({ apiKey, baseURL, fetch }).chat(model),
    takesReasoning: openaiTakesReasoning,
    streamEvents: 'chat-chunks',
    terminalLine: 'data: [DONE]',
    toolErrorFlag: false,
    toolImages: 'after-results',
    thinkingNeedsSignedBlocks: false,
    takesImages: true,
    // High detail: 85 + 170 per 512 px tile after fitting 2 048 px and a 768 px short side, at most 1 105.
    imageTokens: { user: 1_105, tool: 1_105 },
    promptCache: 'key',
    // The Responses API, stateless: the reasoning comes back encrypted and is sent with the next
    // step, and its summary is what the Thinking block shows.
    reasoningAPI: {
      uses: openaiTakesReasoning,
      languageModel: (model, { apiKey, baseURL, fetch }) => createOpenAI({ apiKey, baseURL, fetch }).responses(model),
      streamEvents: { named: RESPONSES_EVENTS },
      terminalLine: 'event: response.completed',
      callOptions: { store: false, include: ['reasoning.encrypted_content'], reasoningSummary: 'auto' },
    },
    catalog: openaiModels.models,
  },
  compat: {
    ...declared('compat'),
    baseURL: null,
    languageModel: (model, { apiKey, baseURL, fetch }) =>
      createOpenAICompatible({
        name: 'compat',
        baseURL,
        fetch,
        includeUsage: true,
        ...(apiKey === undefined ? {} : { apiKey }),
      }).chatModel(model),
    takesReasoning: () => true,
    streamEvents: 'chat-chunks',
    terminalLine: 'data: [DONE]',
    toolErrorFlag: false,
    toolImages: 'named-only',
    thinkingNeedsSignedBlocks: false,
    // Many local models see no images; those that do are not told apart.
    takesImages: false,
    // Counted as OpenAI's; a tool result's images are never sent, only the text naming them.
    imageTokens: { user: 1_105, tool: 0 },
    // Servers differ in what they take: an option one does not know may fail the request.
    promptCache: 'none',
    catalog: 'server',
  },
};

export const MODEL_PROVIDER_LIST: readonly ModelProvider[] = PROVIDERS.map((provider) => MODEL_PROVIDERS[provider.id]);

/** The record of the provider a model id names by its prefix; undefined for the demo and unknown ids. */
export function modelProviderOf(modelId: string): ModelProvider | undefined {
  const colon = modelId.indexOf(':');
  return colon < 0 ? undefined : MODEL_PROVIDER_LIST.find((provider) => provider.id === modelId.slice(0, colon));
}

/** The provider whose model ids also name the server (`compat:<baseURL>#<model>`; its record's `baseURL` is null). */
type ServerNamed = 'compat';

export type ModelSpec =
  | { family: Exclude<ProviderName, ServerNamed>; model: string }
  | { family: ServerNamed; model: string; baseURL: string }
  | { family: 'demo' };

/** Parses a model id; the error says which forms exist. */
export function parseModelId(id: string): { ok: true; spec: ModelSpec } | { ok: false; error: string } {
  if (id === 'demo') return { ok: true, spec: { family: 'demo' } };
  const provider = modelProviderOf(id);
  const rest = provider ? id.slice(provider.id.length + 1) : '';
  if (provider?.baseURL === null) return parseServerModel(id, rest);
  if (provider !== undefined && rest.trim() !== '')
    return { ok: true, spec: { family: provider.id as Exclude<ProviderName, ServerNamed>, model: rest } };
  return { ok: false, error: `Unknown model id "${id}": use ${MODEL_ID_FORMS}.` };
}

/** The server a model id names and the model's name on it (`compat:<baseURL>#<model>`); null for other ids. */
export function serverModelOf(id: string): { baseURL: string; model: string } | null {
  const parsed = parseModelId(id);
  return parsed.ok && 'baseURL' in parsed.spec ? { baseURL: parsed.spec.baseURL, model: parsed.spec.model } : null;
}

/** `<baseURL>#<model>`, the base URL an http(s) address. */
function parseServerModel(id: string, rest: string): { ok: true; spec: ModelSpec } | { ok: false; error: string } {
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
