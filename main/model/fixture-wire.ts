import type { CacheAccount } from './fixture-cache.ts';
import type { FixtureStep, FixtureToolCall } from './fixture-script.ts';
import { responsesErrorEvent, responsesStepEvents } from './fixture-responses-wire.ts';

// The two streaming wire formats, written the way the real APIs write them: Anthropic's named SSE
// events (`event: …` + `data: {…}`), OpenAI's unnamed `data: {…}` chunks closed by `data: [DONE]`.
// Each function returns whole SSE events as text; the server decides how many bytes of them to send.

/** Anthropic's Messages API, OpenAI's chat completions, OpenAI's Responses API. */
export type Wire = 'anthropic' | 'openai' | 'responses';

export interface StepContext {
  /** The model name the request asked for, echoed back like the real APIs do. */
  model: string;
  /** 1-based number of the request on this server: makes ids unique and stable. */
  seq: number;
  /** OpenAI: `stream_options.include_usage` was set, so chunks carry `usage`. */
  includeUsage: boolean;
  /** Unix seconds for OpenAI's `created`. */
  created: number;
  /** The server's own count of the request's input and its cache reads and writes (fixture-cache.ts), instead of the step's usage. */
  cache?: CacheAccount;
}

/** The input tokens a step reports: the server's count when it keeps a prompt cache, else the script's. */
function inputUsage(step: FixtureStep, ctx: StepContext): CacheAccount {
  return ctx.cache ?? { input_tokens: step.usage.input_tokens, cache_read_tokens: 0, cache_write_tokens: 0 };
}

function argumentPieces(call: FixtureToolCall): string[] {
  if (call.args_chunks !== undefined) return call.args_chunks;
  const json = JSON.stringify(call.args ?? {});
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += call.chunk_size) pieces.push(json.slice(i, i + call.chunk_size));
  return pieces;
}

function stopReason(step: FixtureStep): string {
  return step.stop_reason ?? (step.tool_calls.length > 0 ? 'tool_use' : 'end_turn');
}

function anthropicEvent(data: Record<string, unknown>): string {
  return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The real API writes its ping with spaces, unlike every other event. */
const ANTHROPIC_PING = 'event: ping\ndata: {"type": "ping"}\n\n';

export function anthropicStepEvents(step: FixtureStep, ctx: StepContext): string[] {
  const id = `msg_01Fx${String(ctx.seq).padStart(20, '0')}`;
  const input = inputUsage(step, ctx);
  const events = [
    anthropicEvent({
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          // Anthropic's `input_tokens` are those neither read from nor written to the cache.
          input_tokens: input.input_tokens - input.cache_read_tokens - input.cache_write_tokens,
          cache_creation_input_tokens: input.cache_write_tokens,
          cache_read_input_tokens: input.cache_read_tokens,
          output_tokens: 1,
          service_tier: 'standard',
        },
      },
    }),
  ];
  let index = 0;
  const openBlock = (block: Record<string, unknown>): void => {
    events.push(anthropicEvent({ type: 'content_block_start', index, content_block: block }));
    if (index === 0) events.push(ANTHROPIC_PING);
  };
  if (step.thinking.length > 0) {
    openBlock({ type: 'thinking', thinking: '', signature: '' });
    for (const thinking of step.thinking)
      events.push(anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }));
    const signature = Buffer.from(`fixture-signature-${ctx.seq}`).toString('base64');
    events.push(anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } }));
    events.push(anthropicEvent({ type: 'content_block_stop', index }));
    index += 1;
  }
  if (step.text.length > 0) {
    openBlock({ type: 'text', text: '' });
    for (const text of step.text)
      events.push(anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    events.push(anthropicEvent({ type: 'content_block_stop', index }));
    index += 1;
  }
  step.tool_calls.forEach((call, i) => {
    openBlock({ type: 'tool_use', id: call.id ?? `toolu_01Fx${ctx.seq}x${i}`, name: call.name, input: {} });
    for (const partial_json of ['', ...argumentPieces(call)]) {
      events.push(
        anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }),
      );
    }
    events.push(anthropicEvent({ type: 'content_block_stop', index }));
    index += 1;
  });
  if (index === 0) events.push(ANTHROPIC_PING);
  events.push(
    anthropicEvent({
      type: 'message_delta',
      delta: { stop_reason: stopReason(step), stop_sequence: null },
      usage: { output_tokens: step.usage.output_tokens },
    }),
    anthropicEvent({ type: 'message_stop' }),
  );
  return events;
}

const OPENAI_FINISH: Record<string, string> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop',
};

export function openaiStepEvents(step: FixtureStep, ctx: StepContext): string[] {
  const chunk = (choices: unknown[], usage: unknown = null): string => {
    const body: Record<string, unknown> = {
      id: `chatcmpl-Fx${String(ctx.seq).padStart(22, '0')}`,
      object: 'chat.completion.chunk',
      created: ctx.created,
      model: ctx.model,
      service_tier: 'default',
      system_fingerprint: 'fp_fixture01',
      choices,
    };
    if (ctx.includeUsage) body.usage = usage;
    return `data: ${JSON.stringify(body)}\n\n`;
  };
  const choice = (delta: Record<string, unknown>, finish_reason: string | null = null): unknown => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason,
  });
  const events: string[] = [];
  let roleSent = false;
  const withRole = (delta: Record<string, unknown>, content: string | null): Record<string, unknown> => {
    if (roleSent) return delta;
    roleSent = true;
    return { role: 'assistant', content, ...delta, refusal: null };
  };
  // Reasoning as OpenAI-compatible servers stream it (DeepSeek, vLLM, llama.cpp): `reasoning_content`.
  if (step.thinking.length > 0) {
    events.push(chunk([choice(withRole({}, ''))]));
    for (const reasoning_content of step.thinking) events.push(chunk([choice({ reasoning_content })]));
  }
  if (step.text.length > 0) {
    if (!roleSent) events.push(chunk([choice(withRole({}, ''))]));
    for (const content of step.text) events.push(chunk([choice({ content })]));
  }
  step.tool_calls.forEach((call, index) => {
    const start = {
      index,
      id: call.id ?? `call_Fx${ctx.seq}x${index}`,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    events.push(chunk([choice(withRole({ tool_calls: [start] }, null))]));
    for (const args of argumentPieces(call))
      events.push(chunk([choice({ tool_calls: [{ index, function: { arguments: args } }] })]));
  });
  if (!roleSent) events.push(chunk([choice(withRole({}, ''))]));
  events.push(chunk([choice({}, OPENAI_FINISH[stopReason(step)] ?? 'stop')]));
  if (ctx.includeUsage) {
    const { output_tokens } = step.usage;
    const { input_tokens, cache_read_tokens } = inputUsage(step, ctx);
    events.push(
      chunk([], {
        prompt_tokens: input_tokens,
        completion_tokens: output_tokens,
        total_tokens: input_tokens + output_tokens,
        prompt_tokens_details: { cached_tokens: cache_read_tokens, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      }),
    );
  }
  events.push('data: [DONE]\n\n');
  return events;
}

export function stepEvents(wire: Wire, step: FixtureStep, ctx: StepContext): string[] {
  if (wire === 'responses') return responsesStepEvents(step, ctx);
  return wire === 'anthropic' ? anthropicStepEvents(step, ctx) : openaiStepEvents(step, ctx);
}

/** The error event a stream carries when it fails after it started. */
export function streamErrorEvent(wire: Wire, errorType: string, message: string): string {
  if (wire === 'anthropic') return anthropicEvent({ type: 'error', error: { type: errorType, message } });
  if (wire === 'responses') return responsesErrorEvent(errorType, message);
  return `data: ${JSON.stringify({ error: { message, type: errorType, param: null, code: null } })}\n\n`;
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const OPENAI_ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
};

/** The request id of the server's `seq`th request, as the Anthropic API writes them (headers and error bodies). */
export function fixtureRequestId(seq: number): string {
  return `req_01Fx${String(seq).padStart(20, '0')}`;
}

/** An HTTP error body the way each API writes it. */
export function httpErrorBody(
  wire: Wire,
  status: number,
  errorType: string | undefined,
  message: string,
  seq: number,
): string {
  if (wire === 'anthropic') {
    const type = errorType ?? ANTHROPIC_ERROR_TYPES[status] ?? 'api_error';
    return JSON.stringify({
      type: 'error',
      error: { type, message },
      request_id: fixtureRequestId(seq),
    });
  }
  const known = OPENAI_ERRORS[status] ?? { type: 'server_error', code: null };
  return `${JSON.stringify({ error: { message, type: errorType ?? known.type, param: null, code: known.code } }, null, 4)}\n`;
}

/** A step's rate limits as the wire's response headers state them. */
export function rateLimitHeaders(wire: Wire, step: FixtureStep, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [kind, limit] of Object.entries(step.rate_limits ?? {})) {
    if (limit === undefined) continue;
    if (wire === 'anthropic') {
      const name = `anthropic-ratelimit-${kind.replace('_', '-')}`;
      headers[`${name}-limit`] = String(limit.limit);
      headers[`${name}-remaining`] = String(limit.remaining);
      headers[`${name}-reset`] = new Date(now + limit.reset_s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    } else if (kind === 'requests' || kind === 'tokens') {
      headers[`x-ratelimit-limit-${kind}`] = String(limit.limit);
      headers[`x-ratelimit-remaining-${kind}`] = String(limit.remaining);
      headers[`x-ratelimit-reset-${kind}`] = `${limit.reset_s}s`;
    }
  }
  return headers;
}
