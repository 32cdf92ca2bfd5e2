import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSpec } from '../model/types.ts';
import { ageToolResults, agingBoundary, DEFAULT_AGING } from './aging.ts';
import { cachePriced, PromptCache, type ObservedRequest } from './prompt-cache.ts';

// Aging in blocks keeps each request's prefix what the previous request sent, and the watch over
// the prefix names every change of it in the debug log.

const RESULT = 'r'.repeat(6_000);

function conversation(steps: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Read every part.' }];
  for (let index = 1; index <= steps; index += 1) {
    messages.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ call_id: `c${index}`, name: 'read_part', args: { part: index } }],
    });
    messages.push({ role: 'tool', call_id: `c${index}`, name: 'read_part', content: RESULT, is_error: false });
  }
  return messages;
}

describe('aging in blocks', () => {
  it('moves the aged part only when what waits to age passes the block, then up to the last four steps', () => {
    const session = conversation(40);
    const boundaries: number[] = [];
    for (let steps = 1; steps <= 40; steps += 1) boundaries.push(agingBoundary(session.slice(0, 1 + 2 * steps)));
    const moves = boundaries.filter((boundary, index) => index > 0 && boundary !== boundaries[index - 1]);
    // 6 000 characters a step against a 48 KiB block: one move every nine steps or so.
    expect(moves.length).toBeGreaterThanOrEqual(3);
    expect(moves.length).toBeLessThanOrEqual(5);
    for (const [index, boundary] of boundaries.entries()) {
      const messages = 1 + 2 * (index + 1);
      // Never into the last four steps; never more than a block plus four steps behind.
      if (boundary > 0) expect(boundary).toBeLessThanOrEqual(messages - 8);
      expect(messages - boundary).toBeLessThanOrEqual(8 + 2 * Math.ceil(DEFAULT_AGING.blockChars / RESULT.length) + 2);
    }
  });

  it('sends each request as a byte-identical extension of the previous one between the moves', () => {
    const session = conversation(30);
    let previous = ageToolResults(session.slice(0, 3)).map((message) => JSON.stringify(message));
    let breaks = 0;
    for (let steps = 2; steps <= 30; steps += 1) {
      const sent = ageToolResults(session.slice(0, 1 + 2 * steps)).map((message) => JSON.stringify(message));
      if (!previous.every((message, index) => sent[index] === message)) breaks += 1;
      previous = sent;
    }
    expect(breaks).toBeGreaterThan(0);
    expect(breaks).toBeLessThanOrEqual(4);
  });

  it('is a pure function of the messages', () => {
    const session = conversation(25);
    expect(JSON.stringify(ageToolResults(structuredClone(session)))).toBe(JSON.stringify(ageToolResults(session)));
  });
});

describe('the watch over the prefix', () => {
  const TOOL: ToolSpec = { name: 'read_part', description: 'Reads a part.', input_schema: { type: 'object' } };
  const request = (messages: ChatMessage[], extra: Partial<ObservedRequest> = {}): ObservedRequest => ({
    model: 'anthropic:claude-fixture',
    system: 'You are a test.',
    tools: [TOOL],
    messages,
    sent: ageToolResults(messages),
    ...extra,
  });

  it('says nothing while each request extends the previous one, and names each other change in the log', () => {
    const lines: string[] = [];
    const cache = new PromptCache('session-1', { log: (line) => lines.push(line) });
    const session = conversation(3);
    expect(cache.observe(request(session.slice(0, 3)))).toBeNull();
    expect(cache.observe(request(session))).toBeNull();
    expect(cache.observe(request(session, { system: 'You are another test.' }))?.cause).toBe('system prompt');
    expect(cache.observe(request(session, { system: 'You are another test.', tools: [] }))?.cause).toBe('tools');
    const other = { system: 'You are another test.', tools: [], model: 'openai:gpt-fixture' };
    expect(cache.observe(request(session, other))?.cause).toBe('model');
    const replaced = [{ role: 'user' as const, content: 'Start again.' }];
    expect(cache.observe(request(replaced, other))).toMatchObject({ cause: 'replaced', at: 0 });
    cache.compacted();
    expect(cache.observe(request(session, other))).toMatchObject({ cause: 'compaction', at: 0 });
    // The same messages sent differently, with nothing that explains it.
    const altered = session.map((message) => ({ ...message }));
    const sentAltered = ageToolResults(altered).map((message, index) =>
      index === 2 ? { ...message, content: 'changed' } : message,
    ) as ChatMessage[];
    expect(cache.observe({ ...request(altered, other), sent: sentAltered })).toMatchObject({
      cause: 'unexplained',
      at: 2,
    });
    expect(cache.changes.map((change) => change.request)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^request 3: prompt prefix changed at message -1 of 7 \(system prompt\)/);
  });

  it('names the aged part growing', () => {
    const cache = new PromptCache('session-1', { log: () => undefined });
    const session = conversation(40);
    const causes: string[] = [];
    for (let steps = 1; steps <= 40; steps += 1) {
      const change = cache.observe(request(session.slice(0, 1 + 2 * steps)));
      if (change) causes.push(change.cause);
    }
    expect(causes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(causes)).toEqual(new Set(['aging']));
  });

  it('prices an hour’s cache writes at twice the input price, and leaves 5 minutes’ as the catalog has them', () => {
    const id = 'anthropic:claude-sonnet-4-20250514';
    expect(cachePriced(undefined, '5m')(id).prices).toEqual({
      input: 3,
      output: 15,
      cache_read: 0.3,
      cache_write: 3.75,
    });
    expect(cachePriced(undefined, '1h')(id).prices).toEqual({ input: 3, output: 15, cache_read: 0.3, cache_write: 6 });
    // A model without a cache-write price (OpenAI's: it bills none) is left alone.
    expect(cachePriced(undefined, '1h')('openai:gpt-5').prices?.cache_write).toBeUndefined();
  });

  it('asks for the one-hour cache only when set to', () => {
    expect(new PromptCache('s').request()).toEqual({ key: 's' });
    expect(new PromptCache('s', { ttl: '1h' }).request()).toEqual({ key: 's', ttl: '1h' });
  });
});
