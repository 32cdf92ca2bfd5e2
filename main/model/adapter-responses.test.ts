import { describe, expect, it } from 'vitest';
import { fixtureEncryptedReasoning } from './fixture-responses-wire.ts';
import type { ChatMessage, ModelStreamPart, ReasoningBlock } from './types.ts';
import { ModelStreamError } from './types.ts';
import { request, runStep, useHarness, type WireCase } from '../../test/model-support.ts';

// OpenAI's reasoning models go through the Responses API, over real HTTP against the fixture: the
// reasoning summary streams as reasoning (the Thinking block), its encrypted content is kept with
// the step and sent back with the next request, tool calls and usage come through, and the wire's
// faults fail the step as the other wires' do. Other OpenAI models stay on chat completions.

const start = useHarness();

const REASONING: WireCase = {
  wire: 'openai',
  label: 'openai reasoning',
  id: () => 'openai:o4-mini',
  options: (server) => ({ keys: { openai: 'sk-test' }, baseURLs: { openai: server.baseURL }, env: {} }),
};

const HELLO: ChatMessage = { role: 'user', content: 'Read a.txt' };

function finishOf(parts: ModelStreamPart[]): Extract<ModelStreamPart, { type: 'finish' }> {
  const finish = parts.at(-1);
  if (finish?.type !== 'finish') throw new Error(`the step did not finish: ${JSON.stringify(parts)}`);
  return finish;
}

describe('the Responses API for OpenAI reasoning models', () => {
  it('streams the reasoning summary, keeps the encrypted reasoning, and sends it back with the next step', async () => {
    const { adapter, server } = await start(REASONING, {
      steps: [
        {
          thinking: ['The file ', 'is small.'],
          text: ['Reading it.'],
          tool_calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }],
          usage: { input_tokens: 40, output_tokens: 12 },
        },
        { thinking: ['It says alpha.'], text: ['It says alpha.'] },
      ],
    });
    const first = await runStep(adapter, request([HELLO], { effort: 'medium' }));
    expect(first.error).toBeUndefined();
    expect(server.requests[0]?.path).toBe('/v1/responses');
    expect(first.parts.filter((part) => part.type === 'reasoning').map((part) => part.text)).toEqual([
      'The file ',
      'is small.',
    ]);
    expect(first.text).toBe('Reading it.');
    expect(first.parts.filter((part) => part.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { call_id: 'call_1', name: 'read_file', args: { path: 'a.txt' } } },
    ]);
    const finish = finishOf(first.parts);
    expect(finish).toMatchObject({ stop_reason: 'tool-calls', usage: { input_tokens: 40, output_tokens: 12 } });
    const reasoning = finish.reasoning ?? [];
    expect(reasoning).toHaveLength(1);
    expect(reasoning[0]).toMatchObject({ provider: 'openai', text: 'The file is small.' });
    expect(reasoning[0]?.data).toMatchObject({ reasoningEncryptedContent: fixtureEncryptedReasoning(1) });

    const next: ChatMessage[] = [
      HELLO,
      {
        role: 'assistant',
        content: 'Reading it.',
        tool_calls: [{ call_id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }],
        reasoning: reasoning as ReasoningBlock[],
      },
      { role: 'tool', call_id: 'call_1', name: 'read_file', content: 'alpha', is_error: false },
    ];
    const second = await runStep(adapter, request(next, { effort: 'medium' }));
    expect(second.error).toBeUndefined();
    const input = server.requests[1]?.body.input as Record<string, unknown>[];
    const carried = input.find((item) => item.type === 'reasoning');
    expect(carried).toMatchObject({ encrypted_content: fixtureEncryptedReasoning(1) });
    expect(JSON.stringify(carried)).toContain('The file is small.');
    expect(input.find((item) => item.type === 'function_call_output')).toMatchObject({
      call_id: 'call_1',
      output: 'alpha',
    });
    expect(server.requests[1]?.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    expect(second.text).toBe('It says alpha.');
  });

  it('fails the step on an error event, and on a stream that ends before response.completed', async () => {
    const { adapter } = await start(REASONING, {
      steps: [
        { text: ['partial'], fault: { type: 'error_event', after_events: 3, message: 'Overloaded right now' } },
        { text: ['cut short'], fault: { type: 'eof' } },
      ],
    });
    const broken = await runStep(adapter, request([HELLO]));
    expect(broken.error).toBeInstanceOf(ModelStreamError);
    expect((broken.error as ModelStreamError).message).toContain('Overloaded right now');
    const early = await runStep(adapter, request([HELLO]));
    expect((early.error as ModelStreamError).kind).toBe('eof');
    expect((early.error as ModelStreamError).message).toContain('event: response.completed');
  });

  it('keeps other OpenAI models on chat completions', async () => {
    const { adapter, server } = await start(
      { ...REASONING, id: () => 'openai:gpt-4.1' },
      { steps: [{ text: ['ok'] }] },
    );
    expect((await runStep(adapter, request([HELLO]))).error).toBeUndefined();
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });
});
