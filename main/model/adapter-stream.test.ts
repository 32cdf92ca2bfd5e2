import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFixtureStep, type FixtureScriptInput } from './fixture-script.ts';
import { openaiStepEvents } from './fixture-wire.ts';
import { createModelAdapter } from './index.ts';
import { request, runStep, startHarness, WIRE_CASES, type Harness } from '../../test/model-support.ts';
import type { ChatMessage } from './types.ts';

// Healthy steps over both wires: the real SDK clients against the fixture server over real HTTP.

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.server.close();
  harness = undefined;
});

async function start(wireCase: (typeof WIRE_CASES)[number], script: FixtureScriptInput): Promise<Harness> {
  harness = await startHarness(wireCase, script);
  return harness;
}

const LONG_RESULT = `<path>big.txt</path>\n${Array.from({ length: 3000 }, (_, i) => `${i + 1}: línea ✓ ${'x'.repeat(20)}`).join('\n')}`;

const CONVERSATION: ChatMessage[] = [
  { role: 'user', content: 'Read big.txt and missing.txt' },
  {
    role: 'assistant',
    content: 'Reading both.',
    tool_calls: [
      { call_id: 'call_1', name: 'read_file', args: { path: 'big.txt' } },
      { call_id: 'call_2', name: 'read_file', args: { path: 'missing.txt' } },
    ],
  },
  { role: 'tool', call_id: 'call_1', name: 'read_file', content: LONG_RESULT, is_error: false },
  { role: 'tool', call_id: 'call_2', name: 'read_file', content: 'missing.txt: no such file', is_error: true },
];

describe.each(WIRE_CASES)('$label adapter', (wireCase) => {
  it('streams a text-only step as text parts and a finish with usage', async () => {
    const { adapter } = await start(wireCase, {
      steps: [{ text: ['Hel', 'lo, ', 'world'], usage: { input_tokens: 31, output_tokens: 4 } }],
    });
    const outcome = await runStep(adapter, request([{ role: 'user', content: 'hi' }]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.parts).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo, ' },
      { type: 'text', text: 'world' },
      expect.objectContaining({
        type: 'finish',
        stop_reason: 'stop',
        // Cache and reasoning counts are there too where the wire reports them (0 here).
        usage: expect.objectContaining({ input_tokens: 31, output_tokens: 4 }),
      }),
    ]);
  });

  it('yields each tool call once, with its streamed arguments parsed whole', async () => {
    const { adapter } = await start(wireCase, {
      steps: [
        {
          text: ['Let me look.'],
          tool_calls: [
            { id: 'call_a', name: 'read_file', args: { path: 'src/ünïcode name.ts', offset: 10 }, chunk_size: 3 },
            { id: 'call_b', name: 'list_dir', args_chunks: ['{"pa', 'th": ".', '", "depth"', ': 2}'] },
          ],
        },
      ],
    });
    const outcome = await runStep(adapter, request([{ role: 'user', content: 'look' }]));
    expect(outcome.error).toBeUndefined();
    const calls = outcome.parts.flatMap((part) => (part.type === 'tool_call' ? [part.call] : []));
    expect(calls).toEqual([
      { call_id: 'call_a', name: 'read_file', args: { path: 'src/ünïcode name.ts', offset: 10 } },
      { call_id: 'call_b', name: 'list_dir', args: { path: '.', depth: 2 } },
    ]);
    expect(outcome.parts.at(-1)).toMatchObject({ type: 'finish', stop_reason: 'tool-calls' });
  });

  it('sends the model every tool result in full, errors marked, in the order of the calls', async () => {
    const { adapter, server } = await start(wireCase, { steps: [{ text: ['ok'] }] });
    await runStep(adapter, request(CONVERSATION));
    const body = server.requests[0]?.body;
    const messages = body?.messages as Record<string, unknown>[];
    if (wireCase.wire === 'anthropic') {
      expect(body?.system).toEqual([{ type: 'text', text: 'You are a test.' }]);
      expect(messages.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: LONG_RESULT },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'missing.txt: no such file', is_error: true },
        ],
      });
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'big.txt' } },
          { type: 'tool_use', id: 'call_2' },
        ],
      });
    } else {
      expect(messages.slice(-2)).toEqual([
        { role: 'tool', tool_call_id: 'call_1', content: LONG_RESULT },
        { role: 'tool', tool_call_id: 'call_2', content: 'missing.txt: no such file' },
      ]);
      expect(messages[0]).toEqual({ role: 'system', content: 'You are a test.' });
      expect(messages[2]).toMatchObject({
        role: 'assistant',
        content: 'Reading both.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"big.txt"}' } },
          { id: 'call_2' },
        ],
      });
    }
  });

  it('offers the tools with their JSON schemas', async () => {
    const { adapter, server } = await start(wireCase, { steps: [{ text: ['ok'] }] });
    await runStep(adapter, request([{ role: 'user', content: 'hi' }]));
    const tools = server.requests[0]?.body.tools;
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    if (wireCase.wire === 'anthropic')
      expect(tools).toEqual([
        expect.objectContaining({
          name: 'read_file',
          description: 'Read a file of the workspace.',
          input_schema: schema,
        }),
      ]);
    else
      expect(tools).toEqual([
        {
          type: 'function',
          function: expect.objectContaining({
            name: 'read_file',
            description: 'Read a file of the workspace.',
            parameters: schema,
          }),
        },
      ]);
  });

  it('asks for streaming, with usage on the OpenAI wire', async () => {
    const { adapter, server } = await start(wireCase, { steps: [{ text: ['ok'] }] });
    await runStep(adapter, request([{ role: 'user', content: 'hi' }]));
    const body = server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    if (wireCase.wire === 'openai') expect(body?.stream_options).toEqual({ include_usage: true });
  });

  it('keeps a step whose arguments are not JSON as a call with the raw text, for the registry to refuse', async () => {
    const { adapter } = await start(wireCase, {
      steps: [{ tool_calls: [{ id: 'call_x', name: 'read_file', args_chunks: ['{"path": oops'] }] }],
    });
    const outcome = await runStep(adapter, request([{ role: 'user', content: 'hi' }]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.parts).toContainEqual({
      type: 'tool_call',
      call: { call_id: 'call_x', name: 'read_file', args: '{"path": oops' },
    });
  });
});

it('takes `data:[DONE]` without the optional space as the end of a complete stream', async () => {
  // SSE makes the space after the colon optional, and some OpenAI-compatible servers leave it out.
  const step = parseFixtureStep({ text: ['Packed ', 'tight.'] });
  const events = openaiStepEvents(step, { model: 'm', seq: 1, includeUsage: true, created: 0 }).map((event) =>
    event.replace(/^data: /gm, 'data:'),
  );
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(events.join(''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const adapter = createModelAdapter(`compat:http://127.0.0.1:${port}/v1#m`, { env: {} });
    const outcome = await runStep(adapter, request([{ role: 'user', content: 'hi' }]));
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('Packed tight.');
    expect(outcome.parts.at(-1)).toMatchObject({ type: 'finish', stop_reason: 'stop' });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
