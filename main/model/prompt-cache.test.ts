import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './types.ts';
import { request, runStep, useHarness, WIRE_CASES, type WireCase } from '../../test/model-support.ts';

// What each wire is sent so the provider caches the request's prefix, over real HTTP: Anthropic's
// breakpoints, OpenAI's per-session key, and nothing at all for a compatible server.

const start = useHarness();

const wire = (label: string): WireCase => WIRE_CASES.find((item) => item.label === label)!;

const CONVERSATION: ChatMessage[] = [
  { role: 'user', content: 'Read a.txt and b.txt.' },
  { role: 'assistant', content: '', tool_calls: [{ call_id: 'c1', name: 'read_file', args: { path: 'a.txt' } }] },
  { role: 'tool', call_id: 'c1', name: 'read_file', content: 'alpha', is_error: false },
  { role: 'assistant', content: '', tool_calls: [{ call_id: 'c2', name: 'read_file', args: { path: 'b.txt' } }] },
  { role: 'tool', call_id: 'c2', name: 'read_file', content: 'beta', is_error: false },
];

/** Where `cache_control` stands in an Anthropic request body, as readable paths. */
function breakpoints(body: Record<string, unknown>): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'cache_control') found.push(`${path} ${JSON.stringify(inner)}`);
        else walk(inner, `${path}.${key}`);
      }
    }
  };
  walk(body, '');
  return found;
}

describe('prompt cache on the wire', () => {
  it('Anthropic: marks the system prompt, the end of the previous request and the newest message', async () => {
    const { adapter, server } = await start(wire('anthropic'), { steps: [{ text: ['ok'] }, { text: ['ok'] }] });
    const outcome = await runStep(adapter, request(CONVERSATION, { promptCache: { key: 'session-1' } }));
    expect(outcome.error).toBeUndefined();
    const body = server.requests[0]!.body;
    // Messages 0–2 of the wire: the user's, the first call, its result; the second call; its result.
    expect(breakpoints(body)).toEqual([
      '.system[0] {"type":"ephemeral"}',
      '.messages[2].content[0] {"type":"ephemeral"}',
      '.messages[4].content[0] {"type":"ephemeral"}',
    ]);
    expect(JSON.stringify(body)).not.toContain('session-1');
    const hour = await runStep(adapter, request(CONVERSATION, { promptCache: { key: 'session-1', ttl: '1h' } }));
    expect(hour.error).toBeUndefined();
    expect(breakpoints(server.requests[1]!.body)[0]).toBe('.system[0] {"type":"ephemeral","ttl":"1h"}');
  });

  it('Anthropic: marks nothing when the request does not ask for caching', async () => {
    const { adapter, server } = await start(wire('anthropic'), { steps: [{ text: ['ok'] }] });
    await runStep(adapter, request(CONVERSATION));
    expect(breakpoints(server.requests[0]!.body)).toEqual([]);
  });

  it('OpenAI: sends the session as prompt_cache_key and no breakpoints', async () => {
    const { adapter, server } = await start(wire('openai'), { steps: [{ text: ['ok'] }] });
    const outcome = await runStep(adapter, request(CONVERSATION, { promptCache: { key: 'session-1' } }));
    expect(outcome.error).toBeUndefined();
    expect(server.requests[0]!.body.prompt_cache_key).toBe('session-1');
    expect(breakpoints(server.requests[0]!.body)).toEqual([]);
  });

  it('a compatible server gets neither a key nor breakpoints', async () => {
    const { adapter, server } = await start(wire('compat'), { steps: [{ text: ['ok'] }] });
    const outcome = await runStep(adapter, request(CONVERSATION, { promptCache: { key: 'session-1' } }));
    expect(outcome.error).toBeUndefined();
    expect(JSON.stringify(server.requests[0]!.body)).not.toMatch(/session-1|cache_control|prompt_cache/);
  });
});
