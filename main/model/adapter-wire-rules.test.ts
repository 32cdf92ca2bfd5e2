import { describe, expect, it } from 'vitest';
import { fixtureRequestId } from './fixture-wire.ts';
import { ModelStreamError } from './types.ts';
import { request, runStep, useHarness, WIRE_CASES } from '../../test/model-support.ts';

// What the APIs may send beyond the events and headers every step uses: new event types, pings with
// data, `x-should-retry`, request ids, and keep-alives that never end. All over real HTTP.

const start = useHarness();

const HELLO = { role: 'user' as const, content: 'hi' };

function streamError(error: unknown): ModelStreamError {
  expect(error).toBeInstanceOf(ModelStreamError);
  return error as ModelStreamError;
}

describe.each(WIRE_CASES)('$label wire', (wireCase) => {
  it('ignores stream events of types it does not know and finishes the answer', async () => {
    const { adapter } = await start(wireCase, {
      steps: [
        {
          text: ['Hello ', 'there'],
          tool_calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }],
          inject: [
            { after_events: 1, sse: 'event: content_block_future\ndata: {"type":"content_block_future","x":1}\n\n' },
            { after_events: 3, sse: 'data: {"type":"thinking_summary","object":"chat.completion.summary"}\n\n' },
            { after_events: 4, sse: 'event: response.audit\ndata: not json at all\n\n' },
          ],
        },
      ],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('Hello there');
    expect(outcome.parts.filter((part) => part.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { call_id: 'call_1', name: 'read_file', args: { path: 'a.txt' } } },
    ]);
    expect(outcome.parts.at(-1)).toMatchObject({ type: 'finish', stop_reason: 'tool-calls' });
  });

  it('ignores a ping that carries data of its own', async () => {
    const { adapter } = await start(wireCase, {
      steps: [
        {
          text: ['still ', 'here'],
          inject: [
            { after_events: 0, sse: 'event: ping\ndata: {"time": 1767225600}\n\n' },
            { after_events: 3, sse: 'event: ping\ndata: keep-alive\n\n' },
          ],
        },
      ],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('still here');
  });

  it('still fails on an event of a known type that cannot be read', async () => {
    const broken =
      wireCase.wire === 'anthropic'
        ? 'event: content_block_delta\ndata: {"type":"content_block_delta","index":"zero"}\n\n'
        : 'data: {"choices": "none"}\n\n';
    const { adapter } = await start(wireCase, {
      steps: [{ text: ['a', 'b'], inject: [{ after_events: 3, sse: broken }] }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.kind).toBe('stream_error');
  });

  it('does not retry a server error the API marked x-should-retry: false', async () => {
    const { adapter, server, sleeps } = await start(wireCase, {
      steps: [{ fault: { type: 'http_error', status: 500, should_retry: false } }, { text: ['never'] }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error).toMatchObject({ kind: 'http', status: 500, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a refusal the API marked x-should-retry: true', async () => {
    const { adapter, server, sleeps } = await start(wireCase, {
      steps: [{ fault: { type: 'http_error', status: 400, should_retry: true } }, { text: ['second ', 'time'] }],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('second time');
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it("names the provider's request id in the message of a refused request", async () => {
    const { adapter } = await start(wireCase, {
      steps: [{ fault: { type: 'http_error', status: 400, message: 'messages: roles must alternate' } }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.message).toContain('roles must alternate');
    expect(error.message).toContain(`Request id: ${fixtureRequestId(1)}.`);
  });

  it("names the provider's request id in the message of a stream that failed mid-way", async () => {
    const { adapter } = await start(wireCase, {
      steps: [{ text: ['partial'], fault: { type: 'error_event', after_events: 2, message: 'Overloaded right now' } }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.message).toContain('Overloaded right now');
    expect(error.message).toContain(`Request id: ${fixtureRequestId(1)}.`);
  });

  it("names the provider's request id in the message of a stream that ended before its final event", async () => {
    const { adapter } = await start(wireCase, { steps: [{ text: ['cut short'], fault: { type: 'eof' } }] });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.kind).toBe('eof');
    expect(error.message).toContain(`Request id: ${fixtureRequestId(1)}.`);
  });

  it('abandons a request that only trickles keep-alives once its deadline passes, keeping the text', async () => {
    const { adapter, server } = await start(
      wireCase,
      {
        steps: [
          { text: ['one ', 'two'], fault: { type: 'trickle', after_event_containing: 'one ', every_ms: 20 } },
          { text: ['never'] },
        ],
      },
      // Comments every 20 ms keep a 300 ms stall timer from ever firing.
      { stallTimeoutMs: 300, requestTimeoutMs: 900 },
    );
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.text).toBe('one ');
    const error = streamError(outcome.error);
    expect(error.kind).toBe('deadline');
    expect(error.message).toContain('still going after 0.9 s');
    expect(error.message).toContain('model_request_timeout_s');
    expect(server.requests).toHaveLength(1);
  });
});
