import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { parseFixtureScript, type FixtureScriptInput } from './fixture-script.ts';

// The fixture server on the wire, read with a plain HTTP client: exact bytes, recorded requests,
// and each fault as a client sees it.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: FixtureScriptInput): Promise<FixtureServer> {
  server = await startFixtureServer({ script });
  return server;
}

function post(target: FixtureServer, path: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${target.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Reads the body to its end or its failure; returns the text and how it ended. */
async function drain(response: Response): Promise<{ text: string; bytes: number; failed: boolean }> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let failed = false;
  try {
    for (;;) {
      const next = await reader!.read();
      if (next.done) break;
      chunks.push(next.value);
    }
  } catch {
    failed = true;
  }
  const all = Buffer.concat(chunks);
  return { text: all.toString('utf8'), bytes: all.length, failed };
}

const ANTHROPIC_HELLO = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_01Fx00000000000000000001","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  '',
  'event: ping',
  'data: {"type": "ping"}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":0}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"list_dir","input":{}}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"path\\":"}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\\".\\"}"}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":1}',
  '',
  'event: message_delta',
  'data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":3}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
  '',
].join('\n');

const HELLO_STEP = {
  text: ['Hi'],
  tool_calls: [{ id: 'toolu_1', name: 'list_dir', args: { path: '.' }, chunk_size: 8 }],
  usage: { input_tokens: 7, output_tokens: 3 },
};

describe('fixture model server', () => {
  it('writes the Anthropic Messages event stream byte for byte', async () => {
    const target = await serve({ steps: [HELLO_STEP] });
    const response = await post(target, '/messages', { model: 'claude-test', stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect((await drain(response)).text).toBe(ANTHROPIC_HELLO);
  });

  it('writes OpenAI chunks with streamed tool arguments, a usage chunk when asked, then [DONE]', async () => {
    const target = await serve({
      steps: [{ ...HELLO_STEP, tool_calls: [{ ...HELLO_STEP.tool_calls[0]!, id: 'call_1' }] }],
    });
    const { text } = await drain(
      await post(target, '/chat/completions', {
        model: 'gpt-test',
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const events = text.split('\n\n').filter((event) => event !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>);
    expect(chunks.map((chunk) => chunk.choices)).toEqual([
      [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: 'Hi' }, logprobs: null, finish_reason: null }],
      [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'list_dir', arguments: '' } }],
          },
          logprobs: null,
          finish_reason: null,
        },
      ],
      [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] },
          logprobs: null,
          finish_reason: null,
        },
      ],
      [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '".\"}' } }] },
          logprobs: null,
          finish_reason: null,
        },
      ],
      [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }],
      [],
    ]);
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'gpt-test', usage: null });
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  });

  it('leaves usage out of OpenAI chunks unless include_usage was asked', async () => {
    const target = await serve({ steps: [{ text: ['Hi'] }] });
    const { text } = await drain(await post(target, '/chat/completions', { model: 'gpt-test', stream: true }));
    expect(text).not.toContain('usage');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('records every request body, in order, across both wires', async () => {
    const target = await serve({ steps: [{ text: ['a'] }, { text: ['b'] }] });
    await drain(
      await post(target, '/messages', { model: 'm1', stream: true, messages: [{ role: 'user', content: 'one' }] }),
    );
    await drain(
      await post(target, '/chat/completions', {
        model: 'm2',
        stream: true,
        messages: [{ role: 'user', content: 'two' }],
      }),
    );
    expect(target.requests.map((request) => [request.seq, request.wire, request.body.model])).toEqual([
      [1, 'anthropic', 'm1'],
      [2, 'openai', 'm2'],
    ]);
    expect(target.requests[1]?.body.messages).toEqual([{ role: 'user', content: 'two' }]);
  });

  it('tells of each request as it arrives, before its body is read', async () => {
    const arrivals: string[] = [];
    server = await startFixtureServer({
      script: { steps: [{ text: ['a'] }] },
      onArrival: ({ method, path }) => arrivals.push(`${method} ${path} (${server?.requests.length ?? 0} read)`),
    });
    await drain(await post(server, '/chat/completions', { model: 'm', stream: true, messages: [] }));
    expect(arrivals).toEqual(['POST /v1/chat/completions (0 read)']);
  });

  it("answers an HTTP fault with the status, retry-after and each API's error JSON", async () => {
    const target = await serve({
      steps: [
        { fault: { type: 'http_error', status: 429, retry_after: 3, message: 'Too many.' } },
        { fault: { type: 'http_error', status: 529 } },
      ],
    });
    const first = await post(target, '/chat/completions', { model: 'm', stream: true });
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '3']);
    expect(await first.json()).toEqual({
      error: { message: 'Too many.', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    const second = await post(target, '/messages', { model: 'm', stream: true });
    expect(second.status).toBe(529);
    expect(await second.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Fixture error 529.' },
      request_id: 'req_01Fx00000000000000000002',
    });
  });

  it('sends the error event after the given number of events and nothing after it', async () => {
    const target = await serve({ steps: [{ text: ['a', 'b'], fault: { type: 'error_event', after_events: 1 } }] });
    const { text } = await drain(await post(target, '/messages', { model: 'm', stream: true }));
    expect(text.split('\n\n').slice(1)).toEqual([
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      '',
    ]);
  });

  it('cuts the connection after exactly the given number of body bytes', async () => {
    const target = await serve({ steps: [{ ...HELLO_STEP, fault: { type: 'cut', at_byte: 700 } }] });
    const outcome = await drain(await post(target, '/messages', { model: 'claude-test', stream: true }));
    expect(outcome).toEqual({ text: ANTHROPIC_HELLO.slice(0, 700), bytes: 700, failed: true });
  });

  it('ends the body cleanly just before the final event by default on an eof fault', async () => {
    const target = await serve({ steps: [{ text: ['a'], fault: { type: 'eof' } }] });
    const outcome = await drain(await post(target, '/chat/completions', { model: 'm', stream: true }));
    expect(outcome.failed).toBe(false);
    expect(outcome.text).toContain('"finish_reason":"stop"');
    expect(outcome.text).not.toContain('[DONE]');
  });

  it('stalls with the socket open, and close() ends it', async () => {
    const target = await serve({
      steps: [{ text: ['a', 'b'], fault: { type: 'stall', after_event_containing: '"text":"a"' } }],
    });
    const response = await post(target, '/messages', { model: 'm', stream: true });
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"text":"a"}}\n\n')) received += new TextDecoder().decode((await reader.read()).value);
    const pending = reader.read().then(
      (next) => (next.done ? 'ended' : 'more bytes'),
      () => 'failed',
    );
    const early = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('still open'), 200))]);
    expect(early).toBe('still open');
    await target.close();
    server = undefined;
    expect(await pending).toBe('failed');
  });

  it('answers a request past the end of the script with a 500 that names it', async () => {
    const target = await serve({ steps: [] });
    const response = await post(target, '/messages', { model: 'm', stream: true });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('no step for request #1');
  });

  it('rejects an invalid script, naming what is wrong', () => {
    expect(() => parseFixtureScript({ steps: [{ fault: { type: 'cut' } }] })).toThrow(/cut fault needs/);
    expect(() => parseFixtureScript({ steps: [{ tool_calls: [{ name: 'x' }] }] })).toThrow(
      /exactly one of `args` and `args_chunks`/,
    );
    expect(() => parseFixtureScript({ steps: [{ fault: { type: 'http_error', status: 200 } }] })).toThrow(
      /steps\[0\]\.fault\.status/,
    );
  });
});

describe('fixture server: what the APIs may add', () => {
  it('sends injected events as they are, after the given number of events', async () => {
    const target = await serve({
      steps: [{ text: ['a'], inject: [{ after_events: 1, sse: 'event: brand_new\ndata: {"x":1}\n\n' }] }],
    });
    const { text } = await drain(await post(target, '/messages', { model: 'm', stream: true, messages: [] }));
    const events = text.split('\n\n');
    expect(events[0]).toMatch(/^event: message_start\n/);
    expect(events[1]).toBe('event: brand_new\ndata: {"x":1}');
    expect(events[2]).toMatch(/^event: content_block_start\n/);
  });

  it('marks an HTTP error with x-should-retry and the request id headers', async () => {
    const target = await serve({ steps: [{ fault: { type: 'http_error', status: 500, should_retry: false } }] });
    const response = await post(target, '/chat/completions', { model: 'm', stream: true, messages: [] });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.headers.get('x-request-id')).toBe('req_01Fx00000000000000000001');
    expect(response.headers.get('request-id')).toBe('req_01Fx00000000000000000001');
  });

  it('trickles keep-alive comments after the position instead of the rest of the stream', async () => {
    const target = await serve({
      steps: [
        { text: ['kept', 'never sent'], fault: { type: 'trickle', after_event_containing: 'kept', every_ms: 10 } },
      ],
    });
    const response = await post(target, '/chat/completions', { model: 'm', stream: true, messages: [] });
    const reader = response.body!.getReader();
    let text = '';
    while ((text.match(/: keep-alive\n\n/g) ?? []).length < 3) {
      const next = await reader.read();
      if (next.done) throw new Error(`the stream ended instead of trickling: ${text}`);
      text += new TextDecoder().decode(next.value);
    }
    await reader.cancel();
    expect(text).toContain('"content":"kept"');
    expect(text).not.toContain('never sent');
    expect(text.slice(text.indexOf(': keep-alive'))).toMatch(/^(: keep-alive\n\n)+$/);
  });
});
