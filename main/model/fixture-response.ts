import type { ServerResponse } from 'node:http';
import { isRecord } from '../../protocol/json.ts';
import type { FixtureStep } from './fixture-script.ts';
import type { CacheAccount } from './fixture-cache.ts';
import {
  fixtureRequestId,
  httpErrorBody,
  rateLimitHeaders,
  stepEvents,
  streamErrorEvent,
  type Wire,
} from './fixture-wire.ts';

// How the fixture model server writes one answer: the API's error JSON, or a step's SSE body with
// the step's fault acted out on the socket (cut, stall, early end, keep-alive trickle).

/** What of the request the answer depends on. */
export interface AnsweredRequest {
  seq: number;
  body: Record<string, unknown>;
  cache?: CacheAccount;
}

const SSE_HEADERS: Record<Wire, Record<string, string>> = {
  anthropic: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
  openai: { 'content-type': 'text/event-stream; charset=utf-8', 'openai-processing-ms': '1' },
  responses: { 'content-type': 'text/event-stream; charset=utf-8', 'openai-processing-ms': '1' },
};

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function requestIdHeaders(seq: number): Record<string, string> {
  return { 'request-id': fixtureRequestId(seq), 'x-request-id': fixtureRequestId(seq) };
}

export function sendError(
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

/** A step whose fault is `http_error`: its status and the API's error JSON, with its headers. */
export function sendHttpErrorFault(res: ServerResponse, wire: Wire, step: FixtureStep, seq: number): void {
  const fault = step.fault;
  if (fault?.type !== 'http_error') return;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...requestIdHeaders(seq),
    ...rateLimitHeaders(wire, step),
    ...(fault.retry_after === undefined ? {} : { 'retry-after': String(fault.retry_after) }),
    ...(fault.should_retry === undefined ? {} : { 'x-should-retry': String(fault.should_retry) }),
  };
  res.writeHead(fault.status, headers);
  res.end(httpErrorBody(wire, fault.status, fault.error_type, fault.message ?? `Fixture error ${fault.status}.`, seq));
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

/** Streams a step's SSE events in the wire's format, acting out its fault on the way. */
export async function streamStep(
  res: ServerResponse,
  wire: Wire,
  step: FixtureStep,
  request: AnsweredRequest,
): Promise<void> {
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
