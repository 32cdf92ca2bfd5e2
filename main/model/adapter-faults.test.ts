import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startFixtureServer } from './fixture-server.ts';
import { createModelAdapter } from './index.ts';
import { request, runStep, useHarness, WIRE_CASES } from '../../test/model-support.ts';
import { ModelStreamError } from './types.ts';

// Every injected fault, on both wires: what is retried, what fails, and what was already yielded.

const start = useHarness();

const HELLO = { role: 'user' as const, content: 'hi' };
const TOOL_STEP = {
  text: ['Reading ', 'it.'],
  tool_calls: [{ id: 'call_1', name: 'read_file', args_chunks: ['{"path": "no', 'tes/plan.md"}'] }],
};

function streamError(error: unknown): ModelStreamError {
  expect(error).toBeInstanceOf(ModelStreamError);
  return error as ModelStreamError;
}

describe.each(WIRE_CASES)('$label adapter faults', (wireCase) => {
  it('retries a 429 after the retry-after it was given, then streams the answer', async () => {
    const { adapter, server, sleeps } = await start(wireCase, {
      steps: [{ fault: { type: 'http_error', status: 429, retry_after: 2 } }, { text: ['second ', 'time'] }],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('second time');
    expect(sleeps).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
  });

  it('backs off 1 s then 2 s on server errors without retry-after', async () => {
    const { adapter, sleeps } = await start(wireCase, {
      steps: [
        { fault: { type: 'http_error', status: 500 } },
        { fault: { type: 'http_error', status: 503 } },
        { text: ['ok'] },
      ],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.text).toBe('ok');
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('gives up after two retries with the status and the API message', async () => {
    const { adapter, server } = await start(wireCase, {
      steps: [1, 2, 3, 4].map(() => ({
        fault: { type: 'http_error' as const, status: 429, retry_after: 0, message: 'Slow down, please.' },
      })),
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error).toMatchObject({ kind: 'http', status: 429, attempts: 3 });
    expect(error.message).toContain('HTTP 429 (3 attempts)');
    expect(error.message).toContain('Slow down, please.');
    expect(server.requests).toHaveLength(3);
    expect(server.remaining()).toBe(1);
  });

  it('does not retry a request the API refused as invalid', async () => {
    const { adapter, server } = await start(wireCase, {
      steps: [
        { fault: { type: 'http_error', status: 400, message: 'messages: roles must alternate' } },
        { text: ['never'] },
      ],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error).toMatchObject({ kind: 'http', status: 400, attempts: 1 });
    expect(error.message).toContain('roles must alternate');
    expect(server.requests).toHaveLength(1);
  });

  it('fails without waiting when retry-after is longer than the limit', async () => {
    const { adapter, sleeps } = await start(wireCase, {
      steps: [{ fault: { type: 'http_error', status: 429, retry_after: 600 } }, { text: ['never'] }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.message).toContain('it resets at');
    expect(error.message).toContain('(in 600 s)');
    expect(sleeps).toEqual([]);
  });

  it('keeps the text before a mid-stream error event and fails with its message, without retrying', async () => {
    const { adapter, server } = await start(wireCase, {
      steps: [
        {
          text: ['partial ', 'answer ', 'never ', 'finished'],
          fault: { type: 'error_event', after_events: 4, message: 'Overloaded right now' },
        },
        { text: ['no'] },
      ],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    // Anthropic: message_start, content_block_start, ping, one delta. OpenAI: the role chunk, three deltas.
    expect(outcome.text).toBe(wireCase.wire === 'anthropic' ? 'partial ' : 'partial answer never ');
    const error = streamError(outcome.error);
    expect(error.kind).toBe('stream_error');
    expect(error.message).toContain('Overloaded right now');
    expect(server.requests).toHaveLength(1);
  });

  it('yields no tool call when the connection is cut inside its arguments', async () => {
    const { adapter } = await start(wireCase, {
      steps: [{ ...TOOL_STEP, fault: { type: 'cut', after_text: 'tes/plan' } }],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.text).toBe('Reading it.');
    expect(outcome.parts.filter((part) => part.type !== 'text')).toEqual([]);
    const error = streamError(outcome.error);
    expect(error.kind).toBe('cut');
    expect(error.message).toContain('connection closed mid-stream');
    expect(error.message).toContain('(read_file) are not run');
  });

  it('fails a stream that stops sending, keeping what it sent', async () => {
    const { adapter } = await start(
      wireCase,
      { steps: [{ text: ['still ', 'thinking'], fault: { type: 'stall', after_event_containing: 'still ' } }] },
      { stallTimeoutMs: 300 },
    );
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.text).toBe('still ');
    const error = streamError(outcome.error);
    expect(error.kind).toBe('stall');
    expect(error.message).toContain('no data from the model for 0.3 s');
  });

  it('fails a stream that ends cleanly without its final event, and drops its tool calls', async () => {
    const { adapter } = await start(wireCase, { steps: [{ ...TOOL_STEP, fault: { type: 'eof' } }] });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.text).toBe('Reading it.');
    expect(outcome.parts.some((part) => part.type === 'tool_call' || part.type === 'finish')).toBe(false);
    const error = streamError(outcome.error);
    expect(error.kind).toBe('eof');
    expect(error.message).toContain(wireCase.wire === 'anthropic' ? 'event: message_stop' : 'data: [DONE]');
  });

  it('fails a stream cut before any byte of the body, without retrying', async () => {
    const { adapter, server } = await start(wireCase, {
      steps: [{ text: ['x'], fault: { type: 'cut', at_byte: 0 } }, { text: ['no'] }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.kind).toBe('cut');
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry an error event that arrives before any output', async () => {
    const { adapter, server } = await start(wireCase, {
      steps: [{ text: ['x'], fault: { type: 'error_event', after_events: 1 } }, { text: ['no'] }],
    });
    const error = streamError((await runStep(adapter, request([HELLO]))).error);
    expect(error.kind).toBe('stream_error');
    expect(error.message).toContain('Overloaded');
    expect(server.requests).toHaveLength(1);
  });

  it('stops on abort with the abort reason, not a stream error', async () => {
    const { adapter } = await start(
      wireCase,
      { steps: [{ text: ['one ', 'two'], fault: { type: 'stall', after_event_containing: 'one ' } }] },
      { stallTimeoutMs: 10_000 },
    );
    const controller = new AbortController();
    const parts: string[] = [];
    let caught: unknown;
    try {
      for await (const part of adapter.stream(request([HELLO], { signal: controller.signal }))) {
        if (part.type === 'text') parts.push(part.text);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(parts).toEqual(['one ']);
    expect(caught).not.toBeInstanceOf(ModelStreamError);
    expect((caught as Error).name).toBe('AbortError');
  });
});

it('reports a model server that cannot be reached as a network failure after the retries', async () => {
  const server = await startFixtureServer();
  await server.close();
  const sleeps: number[] = [];
  const adapter = createModelAdapter('openai:gpt-4.1', {
    keys: { openai: 'k' },
    baseURLs: { openai: server.baseURL },
    env: {},
    sleep: async (ms) => void sleeps.push(ms),
  });
  const error = streamError((await runStep(adapter, request([HELLO]))).error);
  expect(error).toMatchObject({ kind: 'network', attempts: 3 });
  expect(error.message).toContain(`cannot reach ${server.baseURL}/chat/completions`);
  expect(sleeps).toEqual([1000, 2000]);
});

it('fails a server that accepts the request but never answers, as a stall, without retrying', async () => {
  const connections: Socket[] = [];
  const silent = createServer((socket) => {
    connections.push(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  const adapter = createModelAdapter(`compat:http://127.0.0.1:${port}/v1#m`, {
    env: {},
    stallTimeoutMs: 300,
    sleep: async () => undefined,
  });
  const error = streamError((await runStep(adapter, request([HELLO]))).error);
  expect(error).toMatchObject({ kind: 'stall', attempts: 1 });
  expect(connections).toHaveLength(1);
  for (const socket of connections) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});
