import { z } from 'zod';

// The fixture model's script: what each model request receives, in order, and how it may fail.
//
// Script (JSON, validated by the schema below): { "steps": [Step, …] }. Each model request, of
// either wire, consumes the next step; a request past the end gets HTTP 500 naming the request.
//   Step = {
//     "thinking":    ["Let me", " see"],            Anthropic: a signed thinking block; OpenAI: reasoning_content
//     "text":        ["Hel", "lo"],                 text chunks, one delta each (default [])
//     "tool_calls":  [{ "id"?: "toolu_…", "name": "read_file",
//                       "args": {"path": "a.txt"}, "chunk_size"?: 12 }   args streamed in pieces
//                    | { "name": "…", "args_chunks": ["{\"pa", "th\":1}"] }],  or the exact pieces
//     "stop_reason": "end_turn" | "tool_use" | "max_tokens" | "stop_sequence"
//                    (default: tool_use when there are tool calls, else end_turn; OpenAI maps
//                    them to stop / tool_calls / length / stop),
//     "usage":       { "input_tokens": 12, "output_tokens": 6 }    (with `promptCache` the server counts
//                    the input itself and reports cache reads and writes: fixture-cache.ts),
//     "chunk_delay_ms": 0,                          pause between events
//     "rate_limits": { "requests": { "limit": 50, "remaining": 3, "reset_s": 20 }, "input_tokens": … }
//                    rate-limit headers in the wire's names (OpenAI: requests and tokens only),
//     "inject":      [{ "after_events": 2, "sse": "event: future\ndata: {}\n\n" }]
//                    raw SSE text sent as it is after that many events (new event types, odd pings)
//     "fault"?:      one of
//       { "type": "http_error", "status": 429, "retry_after"?: 2, "error_type"?, "message"?, "should_retry"? }
//           the status with the API's own error JSON, a `retry-after` header (seconds) and an
//           `x-should-retry` header (true / false);
//       { "type": "error_event", "after_events"?: 2, "error_type"?: "overloaded_error", "message"? }
//           that many normal events, then the API's mid-stream error event, then the body ends;
//       { "type": "cut",   <position> }   the socket is destroyed there;
//       { "type": "stall", <position> }   nothing more is sent, the socket stays open until the
//                                          server closes;
//       { "type": "eof",   <position>? }  the body ends cleanly there; by default just before the
//                                          final event (`message_stop` / `data: [DONE]`);
//       { "type": "trickle", <position>, "every_ms"?: 50 }  from there on only SSE comments
//                                          (`: keep-alive`), one every `every_ms`, never an end;
//       where <position> is one of "at_byte": N (body bytes sent), "after_text": "…" (right
//       after its first occurrence, even mid-event), "after_event_containing": "…" (after the
//       whole SSE event that first contains it).
//   }
// and, beside the steps, "models": [{ "id": "local", "context_window"?: 8000 }] is what
// `GET /v1/models` lists, the window as vLLM states it (`max_model_len`); "streams": [{ "match":
// "…", "steps": [Step, …] }] serves several conversations at once (a request whose user messages
// hold `match` takes the next step of that stream, fixture-steps.ts), "latency_ms" delays every
// answer's first byte (a model's time to first token), and a step's "wait_for_requests": N holds
// it until N requests are open at once (`server.maxOpen` says how many ever were).

const positionShape = {
  /** Act once this many bytes of the response body have been sent. */
  at_byte: z.number().int().nonnegative().optional(),
  /** Act right after the first occurrence of this text in the response body. */
  after_text: z.string().min(1).optional(),
  /** Act right after the whole SSE event that first contains this text. */
  after_event_containing: z.string().min(1).optional(),
};

const faultSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('http_error'),
    status: z.number().int().min(400).max(599),
    /** Seconds, sent as the `retry-after` header. */
    retry_after: z.number().nonnegative().optional(),
    /** The API's error type; defaults to what the real API uses for the status. */
    error_type: z.string().optional(),
    message: z.string().optional(),
    /** Sent as the `x-should-retry` header, which tells clients to retry (or not) whatever the status. */
    should_retry: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('error_event'),
    /** Normal events sent before the error event; nothing follows it. */
    after_events: z.number().int().nonnegative().default(2),
    error_type: z.string().default('overloaded_error'),
    message: z.string().default('Overloaded'),
  }),
  z.object({ type: z.literal('cut'), ...positionShape }),
  z.object({ type: z.literal('stall'), ...positionShape }),
  z.object({ type: z.literal('eof'), ...positionShape }),
  z.object({
    type: z.literal('trickle'),
    ...positionShape,
    /** Pause between keep-alive comments (`: keep-alive`); the stream never goes on or ends. */
    every_ms: z.number().int().positive().default(50),
  }),
]);

/** Raw SSE text sent as it is, after that many of the step's own events (new event types, odd pings). */
const injectedEventSchema = z.object({ after_events: z.number().int().nonnegative(), sse: z.string().min(1) });

const toolCallSchema = z
  .object({
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    /** The arguments; serialised as JSON and streamed in pieces of `chunk_size` characters. */
    args: z.unknown().optional(),
    /** Or the exact pieces of the arguments text (may be invalid JSON on purpose). */
    args_chunks: z.array(z.string()).optional(),
    chunk_size: z.number().int().positive().default(12),
  })
  .refine((call) => (call.args === undefined) !== (call.args_chunks === undefined), {
    message: 'a tool call needs exactly one of `args` and `args_chunks`',
  });

export const fixtureStepSchema = z
  .object({
    /**
     * Reasoning before the text, one delta per chunk: a signed thinking block on the Anthropic wire,
     * `reasoning_content` deltas on the OpenAI wire (as compatible servers send them).
     */
    thinking: z.array(z.string()).default([]),
    /** Text chunks, one delta each. */
    text: z.array(z.string()).default([]),
    tool_calls: z.array(toolCallSchema).default([]),
    /** Anthropic's names; the OpenAI wire maps them (end_turn → stop, tool_use → tool_calls, …). */
    stop_reason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence']).optional(),
    usage: z
      .object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() })
      .default({ input_tokens: 12, output_tokens: 6 }),
    /** Pause between events, so a person (or a test) can watch or abort mid-stream. */
    chunk_delay_ms: z.number().nonnegative().default(0),
    inject: z.array(injectedEventSchema).default([]),
    /**
     * Held before it answers until this many requests are open at once, this one included (a test
     * that several sessions ask the model side by side); after 10 s it fails naming how many were.
     */
    wait_for_requests: z.number().int().positive().optional(),
    fault: faultSchema.optional(),
    /**
     * Rate-limit headers on the response (an error's too), in each wire's names: Anthropic's
     * `anthropic-ratelimit-…` for each kind, OpenAI's `x-ratelimit-…` for requests and tokens.
     */
    rate_limits: z
      .partialRecord(
        z.enum(['requests', 'tokens', 'input_tokens', 'output_tokens']),
        z.object({
          limit: z.number().int().nonnegative(),
          remaining: z.number().int().nonnegative(),
          /** Seconds from the response until it is whole again. */
          reset_s: z.number().nonnegative(),
        }),
      )
      .optional(),
  })
  .superRefine((step, ctx) => {
    const fault = step.fault;
    const positioned =
      fault?.type === 'cut' || fault?.type === 'stall' || fault?.type === 'eof' || fault?.type === 'trickle';
    const positions = positioned
      ? [fault.at_byte, fault.after_text, fault.after_event_containing].filter((p) => p !== undefined).length
      : 0;
    if (positions > 1)
      ctx.addIssue({
        code: 'custom',
        message: 'a fault takes one of `at_byte`, `after_text`, `after_event_containing`',
        path: ['fault'],
      });
    if ((fault?.type === 'cut' || fault?.type === 'stall' || fault?.type === 'trickle') && positions === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `a ${fault.type} fault needs \`at_byte\`, \`after_text\` or \`after_event_containing\``,
        path: ['fault'],
      });
    }
  });

/** A model `GET /v1/models` lists; `context_window` is sent as vLLM's `max_model_len`. */
export const fixtureModelSchema = z.object({
  id: z.string().min(1),
  context_window: z.number().int().positive().optional(),
});

/** Steps for the requests whose user messages hold `match`: one conversation among several at once. */
export const fixtureStreamSchema = z.object({
  match: z.string().min(1),
  steps: z.array(fixtureStepSchema),
});

export const fixtureScriptSchema = z.object({
  steps: z.array(fixtureStepSchema),
  /** What `GET /v1/models` lists (default: no models). */
  models: z.array(fixtureModelSchema).default([]),
  /** Count each request's input and emulate the provider's prompt cache, as the server's `promptCache` option does. */
  prompt_cache: z.boolean().default(false),
  /**
   * Conversations served side by side: a request whose user messages (their text, not tool
   * results) hold a stream's `match` takes that stream's next step; the others take `steps`.
   */
  streams: z.array(fixtureStreamSchema).default([]),
  /** Milliseconds every answer waits before its first byte, as a model's time to first token. */
  latency_ms: z.number().nonnegative().default(0),
});

/** A script as written (defaults optional). */
export type FixtureScriptInput = z.input<typeof fixtureScriptSchema>;
export type FixtureStepInput = z.input<typeof fixtureStepSchema>;
/** A validated script, defaults filled in. */
export type FixtureScript = z.output<typeof fixtureScriptSchema>;
export type FixtureStep = z.output<typeof fixtureStepSchema>;
export type FixtureToolCall = FixtureStep['tool_calls'][number];
export type FixtureFault = NonNullable<FixtureStep['fault']>;

/** Validates a script (parsed JSON); the error names the offending path. */
export function parseFixtureScript(input: unknown): FixtureScript {
  const parsed = fixtureScriptSchema.safeParse(input);
  if (!parsed.success) throw new Error(`Invalid fixture script:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function parseFixtureStep(input: unknown): FixtureStep {
  const parsed = fixtureStepSchema.safeParse(input);
  if (!parsed.success) throw new Error(`Invalid fixture step:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
