import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';

// The fixture server's prompt cache over real HTTP: the usage each wire reports for requests that
// share, extend or change a prefix, by the providers' rules.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(steps: number): Promise<FixtureServer> {
  server = await startFixtureServer({
    promptCache: true,
    script: { steps: Array.from({ length: steps }, () => ({ text: ['ok'] })) },
  });
  return server;
}

/** About `n` tokens of text, different for each seed. */
function words(n: number, seed: string): string {
  return Array.from({ length: n }, (_, i) => `${seed}${i % 10}`).join(' ');
}

async function usageOf(
  target: FixtureServer,
  path: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${target.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify({ stream: true, model: 'fixture', ...body }),
  });
  const text = await response.text();
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const data = JSON.parse(line.slice(6)) as { message?: { usage?: unknown }; usage?: unknown };
    const usage = data.message?.usage ?? data.usage;
    if (usage !== null && typeof usage === 'object') return usage as Record<string, unknown>;
  }
  throw new Error(`No usage in the response: ${text}`);
}

const BP = { cache_control: { type: 'ephemeral' } };
const SYSTEM = [{ type: 'text', text: words(1_500, 'sys'), ...BP }];
const user = (text: string, breakpoint = false) => ({
  role: 'user',
  content: [{ type: 'text', text, ...(breakpoint ? BP : {}) }],
});

describe('fixture prompt cache, Anthropic wire', () => {
  it('writes the prefix up to the last breakpoint, then reads it back and writes only what is new', async () => {
    const target = await serve(3);
    const first = await usageOf(target, '/messages', { system: SYSTEM, messages: [user(words(600, 'a'), true)] });
    expect(first.cache_read_input_tokens).toBe(0);
    const written = first.cache_creation_input_tokens as number;
    expect(written).toBeGreaterThan(2_000);
    expect(first.input_tokens).toBe(0);
    const second = await usageOf(target, '/messages', {
      system: SYSTEM,
      messages: [
        user(words(600, 'a'), true),
        { role: 'assistant', content: [{ type: 'text', text: 'fine' }] },
        user(words(300, 'b'), true),
      ],
    });
    expect(second.cache_read_input_tokens).toBe(written);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(300);
    expect(second.cache_creation_input_tokens).toBeLessThan(written / 2);
    expect(target.requests[1]?.cache?.cache_read_tokens).toBe(written);
    // A change early in the messages: only the system prompt's breakpoint still reads.
    const third = await usageOf(target, '/messages', { system: SYSTEM, messages: [user(words(600, 'c'), true)] });
    expect(third.cache_read_input_tokens).toBeGreaterThan(1_500);
    expect(third.cache_read_input_tokens).toBeLessThan(written);
  });

  it('caches nothing without breakpoints, or below the minimum, and counts it all as input', async () => {
    const target = await serve(2);
    const plain = await usageOf(target, '/messages', { system: words(1_500, 's'), messages: [user(words(500, 'a'))] });
    expect(plain).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(plain.input_tokens).toBeGreaterThan(2_000);
    const small = await usageOf(target, '/messages', { messages: [user('short', true)] });
    expect(small).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });
});

describe('fixture prompt cache, OpenAI wire', () => {
  const system = { role: 'system', content: words(2_000, 'sys') };
  const body = (messages: unknown[], key?: string) => ({
    stream_options: { include_usage: true },
    messages: [system, ...messages],
    ...(key === undefined ? {} : { prompt_cache_key: key }),
  });

  it('reads the longest prefix seen before, from 1 024 tokens in steps of 128, per prompt_cache_key', async () => {
    const target = await serve(4);
    const first = await usageOf(target, '/chat/completions', body([{ role: 'user', content: 'hello' }], 's1'));
    expect(first.prompt_tokens_details).toEqual({ cached_tokens: 0, audio_tokens: 0 });
    const second = await usageOf(target, '/chat/completions', body([{ role: 'user', content: 'hello there' }], 's1'));
    const cached = (second.prompt_tokens_details as { cached_tokens: number }).cached_tokens;
    expect(cached).toBeGreaterThanOrEqual(1_024);
    expect((cached - 1_024) % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(second.prompt_tokens as number);
    const otherKey = await usageOf(target, '/chat/completions', body([{ role: 'user', content: 'hello' }], 's2'));
    expect(otherKey.prompt_tokens_details).toEqual({ cached_tokens: 0, audio_tokens: 0 });
    const short = await usageOf(target, '/chat/completions', {
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
      prompt_cache_key: 's1',
    });
    expect(short.prompt_tokens_details).toEqual({ cached_tokens: 0, audio_tokens: 0 });
  });
});
