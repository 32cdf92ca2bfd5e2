import { APICallError } from 'ai';
import { toSdkCallOptions, type ProviderFamily, type SdkCallOptions, type SdkLanguageModel } from './sdk-prompt.ts';
import {
  ModelStreamError,
  type ModelAdapter,
  type ModelFailureKind,
  type ModelRequest,
  type ModelStreamPart,
  type ReasoningBlock,
} from './types.ts';
import { knownEventTest } from './sse-events.ts';
import { limitRefusal, rateLimitsOf } from './rate-limits.ts';
import { WireWatch, type Fetch } from './wire-watch.ts';
import { RequestTexts, SentTexts } from './request-texts.ts';
import type { ProviderAPI } from './providers.ts';
import type { ToolCallRequest, Usage } from '../../protocol/events.ts';

// One model step over an AI SDK provider, called at the level of its `doStream`: the SDK's own
// loop (streamText) would add a second retry layer, tool-input repair and multi-step logic we run
// ourselves, and would hide the raw stream we need to tell a clean end from a broken one.

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface SdkAdapterConfig {
  /** The adapter id, used in every error message. */
  id: string;
  family: ProviderFamily;
  /** The SSE line that closes a complete stream on this wire. */
  terminalLine: string;
  /** The stream events the SDK may see on this wire. */
  streamEvents: ProviderAPI['streamEvents'];
  /** Provider options every request carries (under the family's id). */
  callOptions?: Readonly<Record<string, unknown>>;
  /** Whether the model takes a reasoning effort at all; when not, the setting is left out. */
  takesReasoning: boolean;
  /** Builds the provider's model over a fetch; one per attempt, so each attempt is watched. */
  model(fetch: Fetch): SdkLanguageModel;
  fetch: Fetch;
  stallTimeoutMs: number;
  /** One request, from sending it to the end of its stream, is abandoned after this long. */
  requestTimeoutMs: number;
  /** Retries after the first request, only before a stream body starts. */
  maxRetries: number;
  /** A `retry-after` longer than this is not waited for: the step fails and says when to retry. */
  maxRetryAfterMs: number;
  sleep: Sleep;
}

type StreamResult = Awaited<ReturnType<SdkLanguageModel['doStream']>>;
type SdkPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The model step was aborted.', 'AbortError');
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const record = error as Record<string, unknown>;
    const inner =
      typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : record;
    if (typeof inner.message === 'string')
      return typeof inner.type === 'string' ? `${inner.type}: ${inner.message}` : inner.message;
    return JSON.stringify(error);
  }
  return String(error);
}

/** Ends a message from elsewhere with a full stop, so the hint after it reads as a new sentence. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

const STATUS_HINTS: Record<number, string> = {
  401: 'Check the API key.',
  403: 'The key is not allowed to use this model.',
  404: 'Check the model name and the base URL.',
  529: 'The API is overloaded: try again shortly.',
};

/** The wait a response asks for (`retry-after-ms`, `retry-after`), if it asks for one. */
function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers?.['retry-after'];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date; else 1 s, 2 s, … */
export function retryDelayMs(headers: Record<string, string> | undefined, attempt: number, now = Date.now()): number {
  return retryAfterMs(headers, now) ?? 1000 * 2 ** (attempt - 1);
}

/**
 * Whether a failed request is tried again. The APIs can decide with `x-should-retry` (true or false),
 * as their official SDKs honour it; without it, the status decides (408, 409, 429, 5xx).
 */
export function shouldRetry(error: APICallError): boolean {
  const header = error.responseHeaders?.['x-should-retry'];
  if (header === 'true') return true;
  if (header === 'false') return false;
  return error.isRetryable;
}

/** The provider's id for the request lets its support find what happened on their side. */
function requestIdNote(watch: WireWatch): string {
  return watch.requestId === undefined ? '' : ` Request id: ${watch.requestId}.`;
}

/** A failed step's tool calls, complete or not, are never run: say which ones the person lost. */
function droppedNote(names: string[]): string {
  return names.length === 0 ? '' : ` This step's tool calls (${names.join(', ')}) are not run.`;
}

function failure(
  config: SdkAdapterConfig,
  watch: WireWatch,
  attempts: number,
  error: unknown,
  droppedCalls: string[] = [],
): ModelStreamError {
  const id = config.id;
  const dropped = droppedNote(droppedCalls);
  const requestId = requestIdNote(watch);
  const make = (kind: ModelFailureKind, message: string, status?: number, retryAt?: string): ModelStreamError =>
    new ModelStreamError(`${message}${requestId}${dropped}`, {
      kind,
      attempts,
      cause: error,
      ...(status === undefined ? {} : { status }),
      ...(retryAt === undefined
        ? {}
        : { retryAt, rateLimits: rateLimitsOf(APICallError.isInstance(error) ? error.responseHeaders : undefined) }),
    });

  if (watch.deadlineExceeded) {
    return make(
      'deadline',
      `${id}: the request was still going after ${config.requestTimeoutMs / 1000} s, the limit for one model request; ` +
        'the step was abandoned. Raise model_request_timeout_s in the settings if answers take longer.',
    );
  }
  if (watch.stalled) {
    return make(
      'stall',
      `${id}: no data from the model for ${config.stallTimeoutMs / 1000} s; the step was abandoned.`,
    );
  }
  if (watch.bodyError !== undefined) {
    return make(
      'cut',
      `${id}: the connection closed mid-stream (${describe(watch.bodyError)}); the answer is incomplete.`,
    );
  }
  if (APICallError.isInstance(error) && !watch.bodyStarted) {
    if (error.statusCode === undefined)
      return make('network', `${id}: cannot reach ${error.url}: ${sentence(describe(error.cause ?? error))}`);
    const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
    // A rate limit says which one, when it resets and what to do.
    const refusal =
      error.statusCode === 429 ? limitRefusal(error.responseHeaders, retryAfterMs(error.responseHeaders)) : undefined;
    const hint =
      refusal?.text ??
      STATUS_HINTS[error.statusCode] ??
      (error.statusCode >= 500 ? 'The service failed; try again later.' : '');
    return make(
      'http',
      `${id}: the API answered HTTP ${error.statusCode}${tries}: ${sentence(error.message)} ${hint}`.trimEnd(),
      error.statusCode,
      refusal?.retryAt,
    );
  }
  return make('stream_error', `${id}: the model's stream reported an error: ${sentence(describe(error))}`);
}

async function open(
  config: SdkAdapterConfig,
  options: SdkCallOptions,
  signal: AbortSignal,
  texts: RequestTexts,
): Promise<{ result: StreamResult; watch: WireWatch; attempts: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const watch = new WireWatch({
      fetch: config.fetch,
      stallTimeoutMs: config.stallTimeoutMs,
      terminalLine: config.terminalLine,
      deadlineMs: config.requestTimeoutMs,
      knownEvent: knownEventTest(config.streamEvents),
      label: config.id,
    });
    try {
      const result = await config.model(texts.fetch(watch.fetch)).doStream(options);
      return { result, watch, attempts: attempt };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      const retryable =
        APICallError.isInstance(error) &&
        shouldRetry(error) &&
        !watch.bodyStarted &&
        !watch.stalled &&
        !watch.deadlineExceeded;
      if (!retryable || attempt > config.maxRetries) throw failure(config, watch, attempt, error);
      const wait = retryDelayMs(error.responseHeaders, attempt);
      if (wait > config.maxRetryAfterMs) {
        const base = failure(config, watch, attempt, error);
        // A rate limit's refusal already says when; others say what the API asked.
        if (base.retryAt !== undefined) throw base;
        throw new ModelStreamError(`${base.message} The API asks to retry after ${Math.ceil(wait / 1000)} s.`, {
          kind: base.kind,
          attempts: attempt,
          cause: error,
          ...(base.status === undefined ? {} : { status: base.status }),
        });
      }
      try {
        await config.sleep(wait, signal);
      } catch (sleepError) {
        if (signal.aborted) throw abortReason(signal);
        throw sleepError;
      }
    }
  }
}

interface StepState {
  calls: ToolCallRequest[];
  /** Tool calls begun (by name), keyed by the SDK's id; removed once complete. */
  started: Map<string, string>;
  reasoning: Map<string, ReasoningBlock>;
  finish?: Extract<SdkPart, { type: 'finish' }>;
  streamError?: unknown;
}

function parseArgs(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function metadataOf(
  part: { providerMetadata?: Record<string, unknown> },
  family: ProviderFamily,
): Record<string, unknown> | undefined {
  const data = part.providerMetadata?.[family];
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined;
}

/** Folds one SDK part into the step; returns the text or reasoning to yield now. */
function absorb(part: SdkPart, state: StepState, family: ProviderFamily): ModelStreamPart | undefined {
  switch (part.type) {
    case 'text-delta':
      return part.delta.length > 0 ? { type: 'text', text: part.delta } : undefined;
    case 'tool-input-start':
      state.started.set(part.id, part.toolName);
      return undefined;
    case 'tool-call':
      state.started.delete(part.toolCallId);
      state.calls.push({ call_id: part.toolCallId, name: part.toolName, args: parseArgs(part.input) });
      return undefined;
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end': {
      const block = state.reasoning.get(part.id) ?? { provider: family, text: '' };
      if (part.type === 'reasoning-delta') block.text += part.delta;
      const data = metadataOf(part, family);
      if (data !== undefined) block.data = { ...block.data, ...data };
      state.reasoning.set(part.id, block);
      return part.type === 'reasoning-delta' && part.delta.length > 0
        ? { type: 'reasoning', text: part.delta }
        : undefined;
    }
    case 'error':
      state.streamError = part.error;
      return undefined;
    case 'finish':
      state.finish = part;
      return undefined;
    default:
      return undefined;
  }
}

async function* streamStep(
  config: SdkAdapterConfig,
  request: ModelRequest,
  sent: SentTexts,
): AsyncGenerator<ModelStreamPart> {
  if (request.signal.aborted) throw abortReason(request.signal);
  const texts = new RequestTexts(sent);
  const options = toSdkCallOptions(request, config.family, config.takesReasoning, (text) => texts.refer(text));
  if (config.callOptions !== undefined) {
    const own = options.providerOptions?.[config.family] ?? {};
    options.providerOptions = {
      ...options.providerOptions,
      [config.family]: { ...config.callOptions, ...own },
    } as typeof options.providerOptions;
  }
  const { result, watch, attempts } = await open(config, options, request.signal, texts);
  const state: StepState = { calls: [], started: new Map(), reasoning: new Map() };
  const reader = result.stream.getReader();
  const unfinished = (): string[] => [...state.calls.map((call) => call.name), ...state.started.values()];
  try {
    while (state.streamError === undefined) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        if (request.signal.aborted) throw abortReason(request.signal);
        throw failure(config, watch, attempts, error, unfinished());
      }
      if (next.done) break;
      const live = absorb(next.value, state, config.family);
      if (live !== undefined) yield live;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (request.signal.aborted) throw abortReason(request.signal);
  if (watch.stalled || watch.deadlineExceeded || watch.bodyError !== undefined)
    throw failure(config, watch, attempts, watch.bodyError, unfinished());
  if (state.streamError !== undefined) throw failure(config, watch, attempts, state.streamError, unfinished());
  if (!watch.sawTerminal || state.finish === undefined) {
    const dropped = unfinished();
    throw new ModelStreamError(
      `${config.id}: the stream ended before its final event (${config.terminalLine}); the answer is incomplete.` +
        `${requestIdNote(watch)}${droppedNote(dropped)}`,
      { kind: 'eof', attempts },
    );
  }
  for (const call of state.calls) yield { type: 'tool_call', call };
  const finish = state.finish;
  const reasoning = [...state.reasoning.values()].filter((block) => block.text.length > 0 || block.data !== undefined);
  const limits = rateLimitsOf(watch.headers);
  yield {
    type: 'finish',
    stop_reason: finish.finishReason.unified,
    usage: stepUsage(finish.usage),
    ...(finish.finishReason.raw === undefined ? {} : { raw_stop_reason: finish.finishReason.raw }),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    ...(limits.length > 0 ? { rate_limits: limits } : {}),
  };
}

/** The SDK's usage in the session's terms; the parts a provider does not report stay absent. */
export function stepUsage(usage: Extract<SdkPart, { type: 'finish' }>['usage']): Usage {
  const result: Usage = { input_tokens: usage.inputTokens.total ?? 0, output_tokens: usage.outputTokens.total ?? 0 };
  if (usage.inputTokens.cacheRead !== undefined) result.cache_read_tokens = usage.inputTokens.cacheRead;
  if (usage.inputTokens.cacheWrite !== undefined) result.cache_write_tokens = usage.inputTokens.cacheWrite;
  if (usage.outputTokens.reasoning !== undefined) result.reasoning_tokens = usage.outputTokens.reasoning;
  return result;
}

export function createSdkAdapter(config: SdkAdapterConfig): ModelAdapter {
  // Each request reuses the serialised texts of the one before (a step resends the recent results).
  const sent = new SentTexts();
  return { id: config.id, stream: (request) => streamStep(config, request, sent) };
}
