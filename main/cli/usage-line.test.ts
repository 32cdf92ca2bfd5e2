import { describe, expect, it } from 'vitest';
import type { StepUsageEvent } from '../../protocol/events.ts';
import { TurnUsageTally } from './usage-line.ts';

// The line `aether run` ends a turn with: tokens in (with what the prompt cache read and wrote),
// tokens out, the context against the window, and the cost.

const step = (usage: StepUsageEvent['usage'], cost: number, session: number): StepUsageEvent => ({
  type: 'step_usage',
  turn_id: 't1',
  model: 'anthropic:claude-sonnet-4-5',
  usage,
  context_tokens: usage.input_tokens + usage.output_tokens,
  context_window: 200_000,
  cost,
  session_cost: session,
});

describe('TurnUsageTally', () => {
  it('says how many input tokens the cache read and how many were written to it', () => {
    const tally = new TurnUsageTally();
    tally.add(
      step({ input_tokens: 10_000, output_tokens: 50, cache_read_tokens: 0, cache_write_tokens: 9_000 }, 0.04, 0.04),
    );
    tally.add(
      step(
        { input_tokens: 12_000, output_tokens: 70, cache_read_tokens: 9_000, cache_write_tokens: 2_500 },
        0.02,
        0.06,
      ),
    );
    expect(tally.take()).toBe(
      '22,000 tokens in (9,000 read from the cache, 11,500 written to it), 120 out · context 12,070 of 200,000 (6.0 %) · $0.06 this turn, $0.06 this session',
    );
    tally.add(
      step({ input_tokens: 3_000, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 2_900 }, 0.01, 0.07),
    );
    expect(tally.take()).toMatch(/^3,000 tokens in \(2,900 written to the cache\), 5 out/);
    tally.add(step({ input_tokens: 30, output_tokens: 5, cache_read_tokens: 0 }, 0, 0.07));
    expect(tally.take()).toMatch(/^30 tokens in, 5 out/);
  });

  it('ends with a rate limit that is near, until it resets', () => {
    const tally = new TurnUsageTally();
    const soon = new Date(Date.now() + 60_000).toISOString();
    tally.add({
      ...step({ input_tokens: 30, output_tokens: 5 }, 0, 0),
      rate_limits: [
        { name: 'requests', limit: 50, remaining: 1, resets_at: soon },
        { name: 'tokens', limit: 400_000, remaining: 390_000, resets_at: soon },
      ],
    });
    expect(tally.take()).toMatch(/ · near the provider’s rate limit: requests 1 of 50 left until \d\d:\d\d:\d\d$/);
    tally.add({
      ...step({ input_tokens: 30, output_tokens: 5 }, 0, 0),
      rate_limits: [{ name: 'requests', limit: 50, remaining: 40, resets_at: soon }],
    });
    expect(tally.take()).not.toContain('rate limit');
  });
});
