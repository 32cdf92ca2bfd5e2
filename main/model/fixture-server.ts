import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  parseFixtureScript,
  parseFixtureStep,
  type FixtureScript,
  type FixtureScriptInput,
  type FixtureStep,
} from './fixture-script.ts';
import { isRecord } from '../../protocol/json.ts';
import { errorMessage } from '../../protocol/errors.ts';
import { FixturePromptCache, type CacheAccount } from './fixture-cache.ts';
import {
  fixtureRequestId,
  httpErrorBody,
  rateLimitHeaders,
  stepEvents,
  streamErrorEvent,
  type Wire,
} from './fixture-wire.ts';

// The fixture model server: a real HTTP server on 127.0.0.1 that answers `POST /v1/messages` in the
// Anthropic Messages SSE format, `POST /v1/chat/completions` in the OpenAI chat-completions SSE
// format and `POST /v1/responses` in the OpenAI Responses one (fixture-responses-wire.ts: a step's
// `thinking` is a reasoning summary with encrypted content), replaying a script. Tests point the real SDK clients at it; the demo model plays on it.
//
// Script (JSON, validated by fixture-script.ts): { "steps": [Step, …] }. Each model request, of
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
// hold `match` takes the next step of that stream, see requestStream), "latency_ms" delays every
// answer's first byte (a model's time to first token), and a step's "wait_for_requests": N holds
// it until N requests are open at once (`server.maxOpen` says how many ever were).
// Every response carries the request id headers both APIs send (`request-id`, `x-request-id`).
// Every request is recorded (`server.requests`): wire, path, headers and the parsed JSON body, so
// tests assert exactly what the model was sent. Instead of a script, `respond(request)` may compute
// each step from the request (the demo does this).
//
// Run alone: `node main/model/fixture-server.ts script.json` prints the URL it listens on.

export interface RecordedRequest {
  /** 1-based, in arrival order. */
  seq: number;
  wire: Wire;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** With the prompt cache on: the server's count of the input, and what it read from and wrote to the cache. */
  cache?: CacheAccount;
}

export type StepSource = (request: RecordedRequest) => FixtureStep | undefined;

export interface FixtureServerOptions {
  script?: FixtureScriptInput;
  /** Computes each step from the request instead of a script. */
  respond?: StepSource;
  /** Default 0: the system picks a free port. */
  port?: number;
  /** Let the process exit while the server is up (the in-process demo). */
  unref?: boolean;
  /**
   * Count each request's input tokens and emulate the provider's prompt cache (fixture-cache.ts):
   * the usage reports cache reads and writes by the provider's rules, not the step's `usage.input_tokens`.
   */
  promptCache?: boolean;
}

export interface FixtureServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The base URL both SDK providers take: `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Replaces the script and starts from its first step; the request log is kept. */
  load(script: FixtureScriptInput): void;
  /** Steps of the script not yet consumed (its streams' included). */
  remaining(): number;
  /** The most requests that were open at once. */
  readonly maxOpen: number;
  close(): Promise<void>;
}

const ROUTES: Record<string, Wire> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai',
  '/v1/responses': 'responses',
};

const SSE_HEADERS: Record<Wire, Record<string, string>> = {
  anthropic: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
  openai: { 'content-type': 'text/event-stream; charset=utf-8', 'openai-processing-ms': '1' },
  responses: { 'content-type': 'text/event-stream; charset=utf-8', 'openai-processing-ms': '1' },
};

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function requestIdHeaders(seq: number): Record<string, string> {
  return { 'request-id': fixtureRequestId(seq), 'x-request-id': fixtureRequestId(seq) };
}

function sendError(
  res: ServerResponse,
  wire: Wire,
  status: number,
  message: string,
  seq: number,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...requestIdHeaders(seq), ...headers });
  res.end(httpErrorBody(wire, status, undefined, message, seq));
}

/** Where in the body a positioned fault acts, or undefined when it does not. */
function cutoff(step: FixtureStep, chunks: Buffer[]): number | undefined {
  const fault = step.fault;
  if (fault === undefined || fault.type === 'http_error' || fault.type === 'error_event') return undefined;
  const body = Buffer.concat(chunks);
  if (fault.at_byte !== undefined) return Math.min(fault.at_byte, body.length);
  const text = fault.after_text ?? fault.after_event_containing;
  if (text === undefined) return undefined;
  const at = body.indexOf(text);
  if (at < 0) throw new Error(`The fault's text ${JSON.stringify(text)} does not occur in the response.`);
  if (fault.after_text !== undefined) return at + Buffer.byteLength(text);
  let end = 0;
  for (const chunk of chunks) {
    end += chunk.length;
    if (end > at) return end;
  }
  return body.length;
}

/** The OpenAI list format, as vLLM sends it. */
function modelList(script: FixtureScript): Record<string, unknown> {
  return {
    object: 'list',
    data: script.models.map((model) => ({
      id: model.id,
      object: 'model',
      owned_by: 'fixture',
      ...(model.context_window === undefined ? {} : { max_model_len: model.context_window }),
    })),
  };
}

export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  let script: FixtureScript = parseFixtureScript(options.script ?? { steps: [] });
  let cursor = 0;
  let streamCursors = new Map<number, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const promptCache = new FixturePromptCache();
  const open = { now: 0, max: 0, changed: new Set<() => void>() };

  const nextStep = (request: RecordedRequest): FixtureStep | undefined => {
    if (options.respond !== undefined) return options.respond(request);
    const stream = requestStream(script, request.body);
    if (stream >= 0) {
      const at = streamCursors.get(stream) ?? 0;
      const step = script.streams[stream]?.steps[at];
      if (step !== undefined) streamCursors.set(stream, at + 1);
      return step;
    }
    const step = script.steps[cursor];
    if (step !== undefined) cursor += 1;
    return step;
  };

  /** Resolves once `count` requests are open at once; false after the wait's limit. */
  const openTogether = (count: number): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (open.max < count) return;
        clearTimeout(timer);
        open.changed.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        open.changed.delete(check);
        resolve(false);
      }, 10_000);
      open.changed.add(check);
      check();
    });

  async function stream(res: ServerResponse, wire: Wire, step: FixtureStep, request: RecordedRequest): Promise<void> {
    const streamOptions = request.body.stream_options;
    let events = stepEvents(wire, step, {
      model: typeof request.body.model === 'string' ? request.body.model : 'fixture',
      seq: request.seq,
      includeUsage: isRecord(streamOptions) && streamOptions.include_usage === true,
      created: Math.floor(Date.now() / 1000),
      ...(request.cache === undefined ? {} : { cache: request.cache }),
    });
    const fault = step.fault;
    if (fault?.type === 'error_event') {
      events = [...events.slice(0, fault.after_events), streamErrorEvent(wire, fault.error_type, fault.message)];
    }
    for (const injected of [...step.inject].sort((a, b) => b.after_events - a.after_events))
      events.splice(Math.min(injected.after_events, events.length), 0, injected.sse);
    const chunks = events.map((event) => Buffer.from(event, 'utf8'));
    let stopAt = cutoff(step, chunks);
    if (fault?.type === 'eof' && stopAt === undefined)
      stopAt = chunks.slice(0, -1).reduce((sum, chunk) => sum + chunk.length, 0);

    res.writeHead(200, {
      ...SSE_HEADERS[wire],
      ...requestIdHeaders(request.seq),
      ...rateLimitHeaders(wire, step),
    });
    res.flushHeaders();
    let sent = 0;
    for (const chunk of chunks) {
      if (res.destroyed) return;
      if (step.chunk_delay_ms > 0 && sent > 0) await delay(step.chunk_delay_ms);
      const room = stopAt === undefined ? chunk.length : Math.min(chunk.length, stopAt - sent);
      if (room > 0) res.write(chunk.subarray(0, room));
      sent += Math.max(room, 0);
      if (stopAt !== undefined && sent >= stopAt) break;
    }
    if (fault?.type === 'cut') {
      // Let the bytes written so far leave before the socket goes, like a connection dropped mid-body.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      res.socket?.destroy();
      return;
    }
    if (fault?.type === 'stall') return; // keep the socket open; close() destroys it
    if (fault?.type === 'trickle') {
      // Keep-alive comments reset any stall timer, so only a deadline on the whole request ends this.
      while (!res.destroyed && !res.writableEnded) {
        await delay(fault.every_ms);
        if (!res.destroyed) res.write(': keep-alive\n\n');
      }
      return;
    }
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that hangs up mid-stream is an expected event here, not a server failure.
    res.on('error', () => undefined);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const wire = ROUTES[path];
    const seq = requests.length + 1;
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json', ...requestIdHeaders(seq) });
      res.end(JSON.stringify(modelList(script)));
      return;
    }
    if (req.method !== 'POST' || wire === undefined) {
      sendError(
        res,
        wire ?? 'openai',
        404,
        `The fixture model server answers POST /v1/messages, POST /v1/chat/completions, POST /v1/responses and GET /v1/models, not ${req.method} ${path}.`,
        seq,
      );
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      sendError(res, wire, 400, 'The request body is not valid JSON.', seq);
      return;
    }
    if (!isRecord(body)) {
      sendError(res, wire, 400, 'The request body must be a JSON object.', seq);
      return;
    }
    const request: RecordedRequest = { seq, wire, path, headers: { ...req.headers }, body };
    requests.push(request);
    if (body.stream !== true) {
      sendError(res, wire, 400, 'The fixture model server answers streaming requests only ("stream": true).', seq);
      return;
    }
    const step = nextStep(request);
    // A request the API refuses is never cached; one it answers is, before its stream begins.
    const caching = options.promptCache === true || script.prompt_cache;
    if (caching && step !== undefined && step.fault?.type !== 'http_error')
      request.cache = promptCache.account(wire, body, request.headers);
    if (step === undefined) {
      sendError(res, wire, 500, `The fixture script has no step for request #${seq}.`, seq);
      return;
    }
    if (step.wait_for_requests !== undefined && !(await openTogether(step.wait_for_requests))) {
      sendError(
        res,
        wire,
        500,
        `Request #${seq} waited for ${step.wait_for_requests} requests open at once, but at most ${open.max} were.`,
        seq,
      );
      return;
    }
    const latency = script.latency_ms;
    if (latency > 0) await delay(latency);
    const fault = step.fault;
    if (fault?.type === 'http_error') {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...requestIdHeaders(seq),
        ...rateLimitHeaders(wire, step),
        ...(fault.retry_after === undefined ? {} : { 'retry-after': String(fault.retry_after) }),
        ...(fault.should_retry === undefined ? {} : { 'x-should-retry': String(fault.should_retry) }),
      };
      res.writeHead(fault.status, headers);
      res.end(
        httpErrorBody(wire, fault.status, fault.error_type, fault.message ?? `Fixture error ${fault.status}.`, seq),
      );
      return;
    }
    await stream(res, wire, step, request);
  }

  const server = createServer((req, res) => {
    open.now += 1;
    open.max = Math.max(open.max, open.now);
    for (const changed of [...open.changed]) changed();
    res.on('close', () => (open.now -= 1));
    handle(req, res).catch((error: unknown) => {
      const wire = ROUTES[(req.url ?? '/').split('?')[0] ?? '/'] ?? 'openai';
      if (!res.headersSent) sendError(res, wire, 500, errorMessage(error), requests.length);
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    if (options.unref === true) socket.unref();
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  if (options.unref === true) server.unref();
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('The fixture model server did not get a TCP port.');
  const url = `http://127.0.0.1:${address.port}`;

  return {
    port: address.port,
    url,
    baseURL: `${url}/v1`,
    requests,
    load(next) {
      script = parseFixtureScript(next);
      cursor = 0;
      streamCursors = new Map();
    },
    remaining: () =>
      script.steps.length -
      cursor +
      script.streams.reduce((sum, stream, index) => sum + stream.steps.length - (streamCursors.get(index) ?? 0), 0),
    get maxOpen() {
      return open.max;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The stream a request belongs to: the first whose `match` is in the text of its user messages
 * (strings and text blocks, never tool results, which may quote another stream's words); -1: none.
 */
export function requestStream(script: FixtureScript, body: Record<string, unknown>): number {
  if (script.streams.length === 0) return -1;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const texts: string[] = [];
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'user') continue;
    if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content))
      for (const block of message.content)
        if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  }
  const text = texts.join('\n');
  return script.streams.findIndex((stream) => text.includes(stream.match));
}

export { parseFixtureScript, parseFixtureStep };

if (import.meta.main) {
  const file = process.argv[2];
  if (file === undefined) {
    process.stderr.write('usage: node main/model/fixture-server.ts script.json [port]\n');
    process.exit(2);
  }
  const script = JSON.parse(await readFile(file, 'utf8')) as FixtureScriptInput;
  const server = await startFixtureServer({ script, port: Number(process.argv[3] ?? 0) });
  process.stdout.write(`fixture model server on ${server.url} (base URL ${server.baseURL})\n`);
}
