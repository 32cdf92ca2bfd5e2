import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { cacheLine, contextPercent, emptyMeter, formatCost, nearLimits, nearLimitText, reduceMeter } from './meter.ts';
import { statusRows } from '../composer/ContextMeter.tsx';
import { reduceStatusEvents } from './transcript-reducer.ts';
import { emptyTranscript } from './transcript-types.ts';

// The meter from the status stream: an estimate first, the provider's figure replacing it, the
// session's cost and each turn's tokens and cost; the same from a replay as live.

const estimate = (tokens: number, window?: number): StatusEvent => ({
  type: 'context_estimate',
  turn_id: 't1',
  model: 'm',
  context_tokens: tokens,
  ...(window === undefined ? {} : { context_window: window }),
});

const step = (input: number, output: number, cost: number | undefined, total: number): StatusEvent => ({
  type: 'step_usage',
  turn_id: 't1',
  model: 'm',
  usage: { input_tokens: input, output_tokens: output },
  context_tokens: input + output,
  context_window: 10_000,
  ...(cost === undefined ? {} : { cost }),
  session_cost: total,
});

describe('reduceMeter', () => {
  it('shows the estimate until the step ends, then the provider figure, with the window', () => {
    let meter = reduceMeter(emptyMeter(), estimate(900, 10_000));
    expect(meter).toMatchObject({ context_tokens: 900, context_window: 10_000, estimated: true });
    expect(contextPercent(meter)).toBe(9);
    meter = reduceMeter(meter, step(1_000, 200, 0.5, 0.5));
    expect(meter).toMatchObject({ context_tokens: 1_200, estimated: false, session_cost: 0.5 });
    expect(contextPercent(meter)).toBe(12);
  });

  it('says in the status view when the estimate is counted from the length of the texts', () => {
    const used = (meter: ReturnType<typeof emptyMeter>) =>
      statusRows({ meter, model: 'm', effort: 'off', compactAt: undefined }).find(([label]) => label === 'Used')?.[1];
    let meter = reduceMeter(emptyMeter(), { ...estimate(900, 10_000), by_length: true } as StatusEvent);
    expect(meter.estimated).toBe('length');
    expect(used(meter)).toBe('900 tokens (estimated from the text’s length) of 10,000 (9.0 %)');
    meter = reduceMeter(meter, estimate(950, 10_000));
    expect(used(meter)).toBe('950 tokens (estimate) of 10,000 (9.5 %)');
    meter = reduceMeter(meter, step(1_000, 200, 0.5, 0.5));
    expect(used(meter)).toBe('1,200 tokens of 10,000 (12.0 %)');
  });

  it('sums each turn, counts the steps without prices, and forgets a window the next model does not have', () => {
    const events = [estimate(100, 10_000), step(1_000, 10, 0.25, 0.25), step(2_000, 20, undefined, 0.25), estimate(50)];
    const meter = reduceStatusEvents(emptyTranscript(), events).meter;
    expect(meter.turns['t1']).toEqual({ input_tokens: 3_000, output_tokens: 30, cost: 0.25, unpriced_steps: 1 });
    expect(meter.unpriced_steps).toBe(1);
    expect(meter.context_window).toBeUndefined();
    expect(contextPercent(meter)).toBeNull();
  });

  it('keeps the last step’s cache reads and writes and the session’s, and shows them in the status rows', () => {
    const cached = (input: number, read: number, write: number): StatusEvent => ({
      ...(step(input, 10, 0.01, 0.01) as Extract<StatusEvent, { type: 'step_usage' }>),
      usage: { input_tokens: input, output_tokens: 10, cache_read_tokens: read, cache_write_tokens: write },
    });
    const status = (meter: ReturnType<typeof emptyMeter>) =>
      statusRows({ meter, model: 'm', effort: 'off', compactAt: undefined }).find(([label]) => label === 'Cache')?.[1];
    let meter = reduceMeter(emptyMeter(), step(1_000, 10, 0.01, 0.01));
    expect(meter.cache).toBeUndefined();
    expect(status(meter)).toBe('not reported by this model’s provider');
    meter = reduceMeter(meter, cached(10_000, 0, 9_000));
    meter = reduceMeter(meter, cached(12_000, 9_000, 2_500));
    expect(meter.cache).toEqual({
      last: { input: 12_000, read: 9_000, write: 2_500 },
      session: { input: 22_000, read: 9_000, write: 11_500 },
    });
    expect(cacheLine(meter.cache!.last)).toBe('75 % of 12,000 input tokens read from the cache, 2,500 written to it');
    expect(status(meter)).toBe(
      'last step 75 % of 12,000 input tokens read from the cache, 2,500 written to it; ' +
        'this session 41 % of 22,000 input tokens read from the cache, 11,500 written to it',
    );
  });

  it('keeps the last rate limits stated, a refusal’s too, and words the one that is near until it resets', () => {
    const at = (seconds: number) => new Date(Date.parse('2026-12-06T22:30:00Z') + seconds * 1000).toISOString();
    const now = Date.parse('2026-12-06T22:30:00Z');
    const limited = {
      ...(step(1_000, 10, 0.01, 0.01) as Extract<StatusEvent, { type: 'step_usage' }>),
      rate_limits: [
        { name: 'requests', limit: 50, remaining: 3, resets_at: at(60) },
        { name: 'tokens', limit: 400_000, remaining: 390_000, resets_at: at(5) },
      ],
      catalog: 'models.dev catalog of 2026-12-06',
    };
    let meter = reduceMeter(emptyMeter(), limited);
    // Which catalog the window comes from, in the status view.
    expect(statusRows({ meter, model: 'm', effort: 'off', compactAt: undefined })[2]?.[1]).toBe(
      '10,000 tokens (models.dev catalog of 2026-12-06)',
    );
    expect(nearLimits(meter, now).map((limit) => limit.name)).toEqual(['requests']);
    expect(nearLimitText(nearLimits(meter, now))).toMatch(
      /^Near the provider’s rate limit: 3 requests left of 50 \(6 %\) until \d\d:\d\d:\d\d\. Past it, requests are refused until it resets; another model can go on meanwhile\.$/,
    );
    // Gone once it resets.
    expect(nearLimits(meter, now + 61_000)).toEqual([]);
    expect(nearLimitText([])).toBeNull();
    meter = reduceMeter(meter, {
      type: 'turn_failed',
      turn_id: 't1',
      error: 'refused',
      retry_at: at(60),
      rate_limits: [{ name: 'requests', limit: 50, remaining: 0, resets_at: at(60) }],
    });
    expect(meter.limits?.limits).toEqual([{ name: 'requests', limit: 50, remaining: 0, resets_at: at(60) }]);
    const status = statusRows({ meter, model: 'm', effort: 'off', compactAt: undefined });
    expect(status.find(([label]) => label === 'Limits')?.[1]).toMatch(
      /^requests 0 of 50 left \(resets \d\d:\d\d:\d\d\)$/,
    );
  });

  it('formats cents, and fractions of a cent with four places', () => {
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.00123)).toBe('$0.0012');
    expect(formatCost(1.236)).toBe('$1.24');
  });
});
