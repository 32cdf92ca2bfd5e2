import { describe, expect, it } from 'vitest';
import { tokenTexts } from '../../test/token-texts.ts';
import { createModelAdapter } from '../model/index.ts';
import { requestLength } from '../model/token-bounds.ts';
import { estimateTokens, imageTokensFor } from '../model/token-estimate.ts';
import type { ChatMessage, ToolSpec } from '../model/types.ts';
import { ageToolResults } from './aging.ts';
import { compactionDue, type ContextBudget, type RequestShape } from './compaction.ts';
import { contextBudget } from './context-budget.ts';
import { ContextCount } from './context-count.ts';

// Compaction decides by length while the context is far from its lines, and by the tokenizer near
// them: the decision is always the one the tokenizer alone makes, for the texts whose tokens per
// character differ the most, on both sides of the threshold and of the window.

const TEXTS = tokenTexts(30_000);
// The estimate keeps each message's, declaration's and system prompt's count, and the count by
// length then uses it: every request here is made of new objects, so that only its length is known.
const tools = (): ToolSpec[] => [
  { name: 'read_file', description: 'Read a file.', input_schema: { type: 'object', properties: {} } },
];
let requests = 0;
const system = (): string => `You help with code (${(requests += 1)}).`;
const MODEL = createModelAdapter('anthropic:claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: 'never-sent' } });

/** Eight steps reading pieces of `text` of growing size: the older ones age out of the request. */
function conversation(text: string): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: text.slice(0, 200) }];
  for (let step = 1; step <= 8; step += 1) {
    messages.push({
      role: 'assistant',
      content: `Step ${step}.`,
      tool_calls: [{ call_id: `c${step}`, name: 'read_file', args: { path: `f${step}` } }],
    });
    const start = (step * 1_777) % 10_000;
    messages.push({
      role: 'tool',
      call_id: `c${step}`,
      name: 'read_file',
      content: text.slice(start, start + step * 2_500),
      is_error: false,
    });
  }
  return messages;
}

/** Windows that put the line of `share` just under, at and just over `tokens`, and far from it. */
function windowsAround(tokens: number, share: number): number[] {
  const at = tokens / share;
  const factors = [0.5, 0.9, 0.99, 0.999, 1, 1.001, 1.01, 1.1, 2, 4, 8];
  return [
    ...new Set(factors.flatMap((factor) => [-1, 0, 1].map((step) => Math.max(1, Math.round(at * factor) + step)))),
  ];
}

describe('compactionDue', () => {
  for (const [kind, text] of Object.entries(TEXTS)) {
    it(`decides for ${kind} as the tokenizer alone does, near the lines and far from them`, () => {
      const request = (): RequestShape => ({ system: system(), messages: conversation(text), tools: tools() });
      const sent = (shape: RequestShape) => ({
        ...shape,
        messages: ageToolResults(shape.messages),
        imageTokens: imageTokensFor(MODEL.id),
      });
      const tokens = estimateTokens(sent(request()));
      const ceiling = requestLength(sent(request())).ceiling;
      expect(ceiling).toBeGreaterThan(tokens);
      let byLength = 0;
      for (const threshold of [0.5, 0.85, null]) {
        for (const window of windowsAround(tokens, threshold ?? 1)) {
          const budget = contextBudget({ window: () => window, threshold: () => threshold });
          const tokenizer: ContextBudget = { ...budget, byLength: undefined };
          expect(compactionDue(budget, MODEL, request()), `window ${window}, threshold ${threshold}`).toEqual(
            compactionDue(tokenizer, MODEL, request()),
          );
          if (ceiling <= window * (threshold ?? 1)) byLength += 1;
        }
      }
      // Some windows were decided by length alone, without the estimate.
      expect(byLength).toBeGreaterThan(0);
    });
  }
});

describe('ContextCount by length', () => {
  const request = (text: string, steps: number): RequestShape => ({
    system: 'You help.',
    messages: conversation(text).slice(0, 1 + steps * 2),
    tools: tools(),
  });
  /** The estimate of a request, made on a copy so that the request itself stays uncounted. */
  const estimateOf = (shape: RequestShape): number =>
    estimateTokens({ ...shape, messages: structuredClone(shape.messages), tools: tools() });
  const counting = () => new ContextCount(estimateTokens, [], { length: requestLength, ready: () => false });

  /**
   * A step's request and the next one, as a session makes them: the same system prompt, the same
   * declarations and messages, two more steps, and the older results aged out of the next.
   */
  const steps = (text: string): { first: RequestShape; next: RequestShape; answered: RequestShape } => {
    const messages = conversation(text);
    const first = { system: system(), messages: ageToolResults(messages.slice(0, 7)), tools: tools() };
    const answer: ChatMessage[] = [
      { role: 'assistant', content: 'Done.', tool_calls: [] },
      { role: 'user', content: 'Thanks.' },
    ];
    return {
      first,
      next: { ...first, messages: ageToolResults(messages) },
      answered: { ...first, messages: [...first.messages, ...answer] },
    };
  };

  it('keeps its ceiling above the count, whatever the provider said of a request it did not tokenize', () => {
    for (const [kind, text] of Object.entries(TEXTS)) {
      const exact = estimateOf(steps(text).first);
      // Twice the estimate and half (the most and the least a figure may scale it by), just past
      // each, a figure that is not a count, none.
      const inputs = [2 * exact, 2 * exact + 5, Math.round(0.5 * exact), Math.round(0.5 * exact) - 5, 12, 0];
      for (const input of inputs) {
        for (const model of ['a', 'b']) {
          for (const which of ['next', 'answered'] as const) {
            const both = steps(text);
            const count = counting();
            const measured = count.measure(both.first, 'a', Number.POSITIVE_INFINITY);
            expect(measured.estimated, kind).toBeUndefined();
            count.learnStep('a', both.first, measured, input);
            const ceiling = count.byLength(both[which], model)?.ceiling ?? 0;
            expect(ceiling, `${kind}, ${input} for a, then ${which} of ${model}`).toBeGreaterThanOrEqual(
              count.of(both[which], model),
            );
          }
        }
      }
    }
  });

  it('does not double its ceiling for a figure it has not learnt yet, when the request grew by little', () => {
    for (const kind of ['code', 'prose', 'json', 'chinese']) {
      const { first, answered: next } = steps(TEXTS[kind]!);
      const count = counting();
      count.learnStep('a', first, count.measure(first, 'a', Number.POSITIVE_INFINITY), estimateOf(first));
      const ceiling = count.byLength(next, 'a')!.ceiling;
      expect(ceiling, kind).toBe(requestLength(next).ceiling);
      expect(ceiling, kind).toBeGreaterThanOrEqual(count.of(next, 'a'));
    }
  });

  it('learns a figure it did not tokenize as it would have, once it estimates', () => {
    const { first, next } = steps(TEXTS.code!);
    const exact = estimateOf(first);
    const tokenized = counting();
    tokenized.learnStep('a', first, { tokens: exact, estimated: exact }, Math.round(exact * 1.25));
    const later = counting();
    later.learnStep('a', first, later.measure(first, 'a', Number.POSITIVE_INFINITY), Math.round(exact * 1.25));
    expect(later.of(next, 'a')).toBe(tokenized.of(next, 'a'));
  });

  it('says an estimate will soon be needed from three quarters of the first line on, counting by length till then', () => {
    const first = request(TEXTS.prose!, 2);
    let soon = 0;
    const count = new ContextCount(estimateTokens, [], {
      length: requestLength,
      ready: () => false,
      soon: () => (soon += 1),
    });
    const ceiling = count.byLength(first, 'a')!.ceiling;
    expect(count.measure(first, 'a', ceiling * 2).estimated).toBeUndefined();
    expect(soon).toBe(0);
    expect(count.measure(first, 'a', Math.floor(ceiling / 0.75)).estimated).toBeUndefined();
    expect(soon).toBe(1);
    expect(count.measure(first, 'a', ceiling).estimated).toBe(estimateTokens(first));
    expect(soon).toBe(1);
  });

  it('shows a count by length in the provider terms of its last figure, and estimates from the first line on', () => {
    const text = TEXTS.chinese!;
    const count = counting();
    const first = request(text, 2);
    const measured = count.measure(first, 'a', Number.POSITIVE_INFINITY);
    count.learnStep('a', first, measured, Math.round(measured.tokens * 1.5));
    const next = request(text, 4);
    const shown = count.measure(next, 'a', Number.POSITIVE_INFINITY);
    expect(shown.estimated).toBeUndefined();
    expect(shown.tokens).toBe(
      Math.round((requestLength(next).likely * Math.round(measured.tokens * 1.5)) / measured.tokens),
    );
    // At the first line that matters, the count is the estimate, scaled once the figure is learnt.
    const near = count.measure(next, 'a', count.byLength(next, 'a')!.ceiling);
    expect(near.estimated).toBe(estimateTokens(next));
    expect(near.tokens).toBe(count.of(next, 'a'));
  });
});
