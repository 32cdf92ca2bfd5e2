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
import type { Wire } from './fixture-wire.ts';
import { delay, requestIdHeaders, sendError, sendHttpErrorFault, streamStep } from './fixture-response.ts';
import { ScriptSteps } from './fixture-steps.ts';

// The fixture model server: a real HTTP server on 127.0.0.1 that answers `POST /v1/messages` in the
// Anthropic Messages SSE format, `POST /v1/chat/completions` in the OpenAI chat-completions SSE
// format and `POST /v1/responses` in the OpenAI Responses one (fixture-responses-wire.ts: a step's
// `thinking` is a reasoning summary with encrypted content), replaying a script. Tests point the real SDK clients at it; the demo model plays on it.
//
// The script's format is described in fixture-script.ts; which step answers a request is
// fixture-steps.ts, how the answer is written (and a step's fault acted out) fixture-response.ts.
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
  /** Told of each request as it arrives, before its body is read (the benches time arrivals with it). */
  onArrival?: (request: { method: string; path: string }) => void;
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
  const steps = new ScriptSteps(parseFixtureScript(options.script ?? { steps: [] }));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const promptCache = new FixturePromptCache();
  const open = { now: 0, max: 0, changed: new Set<() => void>() };

  const nextStep = (request: RecordedRequest): FixtureStep | undefined =>
    options.respond !== undefined ? options.respond(request) : steps.take(request.body);

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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that hangs up mid-stream is an expected event here, not a server failure.
    res.on('error', () => undefined);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const wire = ROUTES[path];
    const seq = requests.length + 1;
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json', ...requestIdHeaders(seq) });
      res.end(JSON.stringify(modelList(steps.script)));
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
    const caching = options.promptCache === true || steps.script.prompt_cache;
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
    const latency = steps.script.latency_ms;
    if (latency > 0) await delay(latency);
    if (step.fault?.type === 'http_error') {
      sendHttpErrorFault(res, wire, step, seq);
      return;
    }
    await streamStep(res, wire, step, request);
  }

  const server = createServer((req, res) => {
    options.onArrival?.({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] ?? '/' });
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
    load: (next) => steps.load(parseFixtureScript(next)),
    remaining: () => steps.remaining(),
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
