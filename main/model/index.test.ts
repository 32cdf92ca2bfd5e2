import { afterEach, describe, expect, it } from 'vitest';
import type { ReasoningEffort } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { createModelAdapter, ModelConfigError, parseModelId, type ModelAdapterOptions } from './index.ts';
import { request, runStep } from '../../test/model-support.ts';
import type { ChatMessage } from './types.ts';

// Model ids, keys, and how the effort setting and reasoning reach each API.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function bodyFor(
  id: string | ((target: FixtureServer) => string),
  effort: ReasoningEffort,
  messages: ChatMessage[] = [{ role: 'user', content: 'hi' }],
  options: ModelAdapterOptions = {},
): Promise<Record<string, unknown>> {
  server = await startFixtureServer({ script: { steps: [{ text: ['ok'] }] } });
  const target = server;
  const adapter = createModelAdapter(typeof id === 'string' ? id : id(target), {
    keys: { anthropic: 'sk-ant-test', openai: 'sk-test' },
    baseURLs: { anthropic: target.baseURL, openai: target.baseURL },
    env: {},
    ...options,
  });
  const outcome = await runStep(adapter, request(messages, { effort }));
  expect(outcome.error).toBeUndefined();
  return target.requests[0]?.body ?? {};
}

const TOOL_TURN: ChatMessage[] = [
  { role: 'user', content: 'read a.txt' },
  { role: 'assistant', content: '', tool_calls: [{ call_id: 'toolu_1', name: 'read_file', args: { path: 'a.txt' } }] },
  { role: 'tool', call_id: 'toolu_1', name: 'read_file', content: 'hello', is_error: false },
];

describe('model ids', () => {
  it('parses each provider form, keeping colons in model names', () => {
    expect(parseModelId('anthropic:claude-sonnet-4-5')).toEqual({
      ok: true,
      spec: { family: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    expect(parseModelId('openai:gpt-5')).toEqual({ ok: true, spec: { family: 'openai', model: 'gpt-5' } });
    expect(parseModelId('compat:http://127.0.0.1:11434/v1#llama3.1:8b')).toEqual({
      ok: true,
      spec: { family: 'compat', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b' },
    });
    expect(parseModelId('demo')).toEqual({ ok: true, spec: { family: 'demo' } });
  });

  it('refuses an unknown or malformed id with the forms that exist', () => {
    expect(() => createModelAdapter('gpt-5')).toThrow(ModelConfigError);
    expect(() => createModelAdapter('gpt-5')).toThrow(
      'use anthropic:<model>, openai:<model>, compat:<baseURL>#<model> or demo',
    );
    expect(() => createModelAdapter('compat:localhost:11434#llama')).toThrow('compat:<baseURL>#<model>');
    expect(() => createModelAdapter('compat:http://127.0.0.1:8080/v1')).toThrow('compat:<baseURL>#<model>');
  });
});

describe('API keys', () => {
  it('names the environment variable and the settings when the Anthropic key is missing', () => {
    expect(() => createModelAdapter('anthropic:claude-sonnet-4-5', { env: {} })).toThrow(
      'No Anthropic API key for model "anthropic:claude-sonnet-4-5": set the ANTHROPIC_API_KEY environment variable, or save the key in ÆtherCodex\'s settings.',
    );
  });

  it('names OPENAI_API_KEY when the OpenAI key is missing or blank', () => {
    expect(() => createModelAdapter('openai:gpt-5', { env: { OPENAI_API_KEY: '  ' } })).toThrow(
      /set the OPENAI_API_KEY environment variable/,
    );
  });

  it('takes the key from the environment, and a key from the settings over it', async () => {
    await bodyFor('anthropic:claude-sonnet-4-5', 'off', undefined, {
      keys: {},
      env: { ANTHROPIC_API_KEY: 'sk-from-env' },
    });
    expect(server?.requests[0]?.headers['x-api-key']).toBe('sk-from-env');
    await server?.close();
    await bodyFor('openai:gpt-5', 'off', undefined, {
      keys: { openai: 'sk-from-settings' },
      env: { OPENAI_API_KEY: 'sk-from-env' },
    });
    expect(server?.requests[0]?.headers.authorization).toBe('Bearer sk-from-settings');
  });

  it('needs no key for an OpenAI-compatible server', async () => {
    await bodyFor((target) => `compat:${target.baseURL}#local`, 'off', undefined, { keys: {} });
    expect(server?.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('reasoning effort', () => {
  it('asks Anthropic budget models for a thinking budget, and for none when off', async () => {
    expect(await bodyFor('anthropic:claude-sonnet-4-5', 'high')).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 38400 },
    });
    await server?.close();
    expect((await bodyFor('anthropic:claude-sonnet-4-5', 'off')).thinking).toBeUndefined();
  });

  it('asks Anthropic adaptive models for adaptive thinking at the chosen effort', async () => {
    expect(await bodyFor('anthropic:claude-opus-4-7', 'low')).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
  });

  it('sends the effort to OpenAI reasoning models only, on the Responses API with a summary asked for', async () => {
    expect(await bodyFor('openai:o4-mini', 'low')).toMatchObject({
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(server?.requests[0]?.path).toBe('/v1/responses');
    await server?.close();
    expect((await bodyFor('openai:gpt-5', 'off')).reasoning).toEqual({ summary: 'auto' });
    await server?.close();
    expect((await bodyFor('openai:gpt-4.1', 'high')).reasoning_effort).toBeUndefined();
  });

  it('passes reasoning_effort through to an OpenAI-compatible server', async () => {
    expect((await bodyFor((target) => `compat:${target.baseURL}#qwen3`, 'medium')).reasoning_effort).toBe('medium');
  });

  it('turns Anthropic thinking off for a step answering tool calls whose thinking was not kept', async () => {
    expect((await bodyFor('anthropic:claude-sonnet-4-5', 'high', TOOL_TURN)).thinking).toBeUndefined();
  });

  it('sends kept thinking back, signed, ahead of the tool calls it led to', async () => {
    const withThinking: ChatMessage[] = [
      TOOL_TURN[0]!,
      {
        ...(TOOL_TURN[1] as Extract<ChatMessage, { role: 'assistant' }>),
        reasoning: [{ provider: 'anthropic', text: 'Need a.txt.', data: { signature: 'c2ln' } }],
      },
      TOOL_TURN[2]!,
    ];
    const body = await bodyFor('anthropic:claude-sonnet-4-5', 'high', withThinking);
    expect(body.thinking).toMatchObject({ type: 'enabled' });
    const messages = body.messages as { content: unknown[] }[];
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'Need a.txt.', signature: 'c2ln' },
      expect.objectContaining({ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }),
    ]);
  });

  it('returns Anthropic thinking with its signature on the finish part', async () => {
    server = await startFixtureServer({ script: { steps: [{ thinking: ['Let me ', 'think.'], text: ['Done.'] }] } });
    const adapter = createModelAdapter('anthropic:claude-sonnet-4-5', {
      keys: { anthropic: 'k' },
      baseURLs: { anthropic: server.baseURL },
      env: {},
    });
    const outcome = await runStep(adapter, request([{ role: 'user', content: 'hi' }], { effort: 'high' }));
    expect(outcome.text).toBe('Done.');
    expect(outcome.parts.at(-1)).toMatchObject({
      type: 'finish',
      reasoning: [
        {
          provider: 'anthropic',
          text: 'Let me think.',
          data: { signature: Buffer.from('fixture-signature-1').toString('base64') },
        },
      ],
    });
  });
});
