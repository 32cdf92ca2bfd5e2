import { expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ContextCount } from './context-count.ts';
import type { RequestShape } from './compaction.ts';

// The one count of the context: the estimate, scaled by how the provider's last figure for the same
// model counted against it; figures that cannot be counts of the same request are not used.

const request: RequestShape = { system: 'You help.', messages: [], tools: [] };
const estimate = () => 1_000;

it('scales estimates by the last figure of the same model, and leaves other models as estimated', () => {
  const count = new ContextCount(estimate);
  expect(count.of(request, 'a')).toBe(1_000);
  count.learn('a', 1_000, 1_250);
  expect(count.of(request, 'a')).toBe(1_250);
  expect(count.scaled(2_000, 'a')).toBe(2_500);
  expect(count.of(request, 'b')).toBe(1_000);
});

it('does not use a figure that cannot be a count of the same request', () => {
  const count = new ContextCount(estimate);
  count.learn('a', 1_000, 900);
  count.learn('a', 5_000, 12); // a server that reports made-up usage
  count.learn('a', 1_000, 0); // one that reports none
  count.learn('a', 0, 500);
  expect(count.of(request, 'a')).toBe(900);
});

it('takes up a resumed session where its last step left it', () => {
  const step = (model: string, estimated: number | undefined, input: number): StatusEvent => ({
    type: 'step_usage',
    turn_id: 't1',
    model,
    usage: { input_tokens: input, output_tokens: 10 },
    context_tokens: input + 10,
    session_cost: 0,
    ...(estimated === undefined ? {} : { estimated_tokens: estimated }),
  });
  const count = new ContextCount(estimate, [step('a', 1_000, 1_500), step('a', 1_000, 1_100), step('a', undefined, 7)]);
  expect(count.of(request, 'a')).toBe(1_100);
});
