import type { RateLimit, ReasoningEffort, ToolCallRequest, Usage } from '../../protocol/events.ts';

// The neutral conversation the agent loop keeps and the session log records. Adapters translate
// it to each provider's wire format, one model step at a time.

/**
 * A block of the model's own reasoning, kept so it can be sent back: Anthropic requires the signed
 * thinking blocks of the step whose tool calls are being answered when thinking is on.
 */
export interface ReasoningBlock {
  /** The adapter family that produced it (`anthropic`, `openai`, `compat`); others never resend it. */
  provider: string;
  text: string;
  /** Opaque provider data (a signature, redacted data), returned as it came. */
  data?: Record<string, unknown>;
}

/** An image in a person's message: its bytes once loaded (a resumed session reads them from its folder). */
export interface ChatImage {
  sha256: string;
  media_type: string;
  data?: Uint8Array;
}

export type ChatMessage =
  | { role: 'user'; content: string; images?: ChatImage[] }
  | { role: 'assistant'; content: string; tool_calls: ToolCallRequest[]; reasoning?: ReasoningBlock[] }
  | { role: 'tool'; call_id: string; name: string; content: string; is_error: boolean; images?: ChatImage[] };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: Record<string, unknown>;
}

/** Asks the provider to cache the request's prefix (prompt-cache.ts says how each provider is asked). */
export interface PromptCacheRequest {
  /** One per session: OpenAI's `prompt_cache_key`. */
  key: string;
  /** How long Anthropic keeps what is written: 5 minutes (the default) or an hour, at a higher write price. */
  ttl?: '5m' | '1h';
}

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  effort: ReasoningEffort;
  signal: AbortSignal;
  /** Absent: nothing asks for caching (a compaction's summary request, say). */
  promptCache?: PromptCacheRequest;
}

export type ModelStreamPart =
  | { type: 'text'; text: string }
  /** A piece of the model's reasoning (Anthropic thinking, a compatible server's reasoning text), live. */
  | { type: 'reasoning'; text: string }
  /**
   * Only complete calls of a step that ended properly: a failed step yields none, so a
   * half-received call is never emitted. Arguments that are not valid JSON arrive as the raw string.
   */
  | { type: 'tool_call'; call: ToolCallRequest }
  | {
      type: 'finish';
      /** Provider-neutral: `stop`, `tool-calls`, `length`, `content-filter` or `other`. */
      stop_reason: string;
      usage: Usage;
      /** The provider's own word (`end_turn`, `tool_use`, `stop`, `tool_calls`, …). */
      raw_stop_reason?: string;
      /** Reasoning to keep on the assistant message (`ChatMessage.reasoning`) for the next step. */
      reasoning?: ReasoningBlock[];
      /** The provider's rate limits after this step, when its response stated them (rate-limits.ts). */
      rate_limits?: RateLimit[];
    };

export interface ModelAdapter {
  /** `anthropic:<model>`, `openai:<model>`, `compat:<baseURL>#<model>`, `demo`. */
  readonly id: string;
  /**
   * One model step. Throws `ModelStreamError` when the stream fails, stalls or ends early; when
   * `request.signal` aborts, throws the signal's reason (an `AbortError` by default) instead.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
  /** Releases what the adapter holds (the demo's in-process server). Safe to call twice. */
  close?(): Promise<void>;
}

/** Why a model step failed. */
export type ModelFailureKind =
  /** The API answered with an HTTP error (after the allowed retries, if it was retryable). */
  | 'http'
  /** No connection could be made. */
  | 'network'
  /** The stream carried an error event. */
  | 'stream_error'
  /** The connection closed mid-stream. */
  | 'cut'
  /** No bytes arrived for the stall timeout. */
  | 'stall'
  /** The whole request took longer than its deadline (keep-alives kept it from stalling). */
  | 'deadline'
  /** The stream ended cleanly but without its final event. */
  | 'eof';

export class ModelStreamError extends Error {
  override name = 'ModelStreamError';
  readonly kind: ModelFailureKind | undefined;
  /** The HTTP status, for `http` failures. */
  readonly status: number | undefined;
  /** Requests made for this step, retries included. */
  readonly attempts: number;
  /** Refused for a rate limit: when trying again can work (an ISO time). */
  readonly retryAt: string | undefined;
  /** The rate limits the refusal's response stated. */
  readonly rateLimits: RateLimit[] | undefined;

  constructor(
    message: string,
    details: {
      kind?: ModelFailureKind;
      status?: number;
      attempts?: number;
      cause?: unknown;
      retryAt?: string;
      rateLimits?: RateLimit[];
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.status = details.status;
    this.attempts = details.attempts ?? 1;
    this.retryAt = details.retryAt;
    this.rateLimits = details.rateLimits;
  }
}

/** A model id or its configuration cannot work (unknown id, missing key); nothing was sent. */
export class ModelConfigError extends Error {
  override name = 'ModelConfigError';
}
