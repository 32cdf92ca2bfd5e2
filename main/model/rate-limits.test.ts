import { describe, expect, it } from 'vitest';
import { durationMs, limitRefusal, rateLimitsOf } from './rate-limits.ts';
import { ModelStreamError } from './types.ts';
import { request, runStep, useHarness, WIRE_CASES } from '../../test/model-support.ts';

// The providers' rate-limit headers: read after every step, and a request refused for a limit
// says which limit, when it resets and what to do. Over real HTTP against the fixture.

const start = useHarness();
const HELLO = { role: 'user' as const, content: 'hi' };
const NOW = Date.parse('2026-12-06T22:30:00Z');

describe('rate-limit headers', () => {
  it('reads Anthropic’s limits with their reset times and OpenAI’s with their durations', () => {
    const anthropic = new Headers({
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '49',
      'anthropic-ratelimit-requests-reset': '2026-12-06T22:31:00Z',
      'anthropic-ratelimit-input-tokens-limit': '40000',
      'anthropic-ratelimit-input-tokens-remaining': '1200',
      'anthropic-ratelimit-input-tokens-reset': '2026-12-06T22:30:42Z',
    });
    expect(rateLimitsOf(anthropic, NOW)).toEqual([
      { name: 'requests', limit: 50, remaining: 49, resets_at: '2026-12-06T22:31:00.000Z' },
      { name: 'input tokens', limit: 40_000, remaining: 1_200, resets_at: '2026-12-06T22:30:42.000Z' },
    ]);
    const openai = {
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '6m0s',
    };
    expect(rateLimitsOf(openai, NOW)).toEqual([
      { name: 'requests', limit: 500, remaining: 499, resets_at: '2026-12-06T22:30:00.120Z' },
      { name: 'tokens', limit: 30_000, remaining: 0, resets_at: '2026-12-06T22:36:00.000Z' },
    ]);
    expect(durationMs('1h2m3.5s')).toBe(3_723_500);
    expect(durationMs('soon')).toBeUndefined();
    expect(rateLimitsOf(new Headers(), NOW)).toEqual([]);
  });

  it('names the limit used up and when it resets; without headers, says to wait', () => {
    const refusal = limitRefusal(
      { 'x-ratelimit-limit-tokens': '30000', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '42s' },
      undefined,
      NOW,
    );
    expect(refusal.retryAt).toBe('2026-12-06T22:30:42.000Z');
    expect(refusal.text).toMatch(
      /^The provider’s limit on tokens was reached \(0 of 30,000 left\); it resets at \d\d:\d\d:\d\d \(in 42 s\)\. Wait until then — Retry is offered then — or switch to another model\.$/,
    );
    expect(limitRefusal(undefined, 5_000, NOW)).toMatchObject({ retryAt: '2026-12-06T22:30:05.000Z' });
    expect(limitRefusal(undefined, undefined, NOW)).toEqual({
      text: 'The provider’s rate limit was reached. Wait a little and press Retry, or switch to another model.',
    });
  });
});

describe.each(WIRE_CASES.filter((item) => item.label !== 'compat'))('$label wire', (wireCase) => {
  it('hands the limits the response stated to the step’s finish', async () => {
    const { adapter } = await start(wireCase, {
      steps: [{ text: ['ok'], rate_limits: { requests: { limit: 50, remaining: 4, reset_s: 30 } } }],
    });
    const outcome = await runStep(adapter, request([HELLO]));
    expect(outcome.error).toBeUndefined();
    const finish = outcome.parts.at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      rate_limits: [{ name: 'requests', limit: 50, remaining: 4, resets_at: expect.any(String) }],
    });
  });

  it('fails a request refused for a limit with which one, when it resets and what to do', async () => {
    const { adapter, sleeps } = await start(wireCase, {
      steps: [
        {
          fault: { type: 'http_error', status: 429, retry_after: 90, message: 'Rate limit exceeded.' },
          rate_limits: { tokens: { limit: 30_000, remaining: 0, reset_s: 90 } },
        },
      ],
    });
    const before = Date.now();
    const outcome = await runStep(adapter, request([HELLO]));
    const error = outcome.error as ModelStreamError;
    expect(error).toBeInstanceOf(ModelStreamError);
    expect(sleeps).toEqual([]);
    expect(error.message).toContain('HTTP 429');
    expect(error.message).toContain('(0 of 30,000 left); it resets at');
    expect(error.message).toContain('or switch to another model.');
    expect(error.message).not.toContain('The API asks to retry after');
    const retryAt = Date.parse(error.retryAt ?? '');
    expect(retryAt - before).toBeGreaterThanOrEqual(88_000);
    expect(retryAt - before).toBeLessThanOrEqual(92_000 + (Date.now() - before));
  });
});
