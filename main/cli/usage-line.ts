import type { StepUsageEvent } from '../../protocol/events.ts';

// What `aether run` prints about a turn's usage when it ends: its tokens, how full the model's
// context is, what the turn and the session have cost (from the steps' step_usage events), and a
// rate limit that is near.

const numbers = new Intl.NumberFormat('en');

function dollars(value: number): string {
  return value > 0 && value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

export class TurnUsageTally {
  private steps: StepUsageEvent[] = [];

  add(event: StepUsageEvent): void {
    this.steps.push(event);
  }

  /** The turn's line, or null when no step reported usage; the tally starts again after it. */
  take(): string | null {
    const steps = this.steps;
    this.steps = [];
    const last = steps.at(-1);
    if (!last) return null;
    const input = steps.reduce((sum, step) => sum + step.usage.input_tokens, 0);
    const output = steps.reduce((sum, step) => sum + step.usage.output_tokens, 0);
    const cached = steps.reduce((sum, step) => sum + (step.usage.cache_read_tokens ?? 0), 0);
    const written = steps.reduce((sum, step) => sum + (step.usage.cache_write_tokens ?? 0), 0);
    const cache = [
      ...(cached > 0 ? [`${numbers.format(cached)} read from the cache`] : []),
      ...(written > 0 ? [`${numbers.format(written)} written to ${cached > 0 ? 'it' : 'the cache'}`] : []),
    ];
    const parts = [
      `${numbers.format(input)} tokens in${cache.length > 0 ? ` (${cache.join(', ')})` : ''}, ${numbers.format(output)} out`,
    ];
    const window = last.context_window;
    parts.push(
      window === undefined
        ? `context ${numbers.format(last.context_tokens)} tokens (window unknown)`
        : `context ${numbers.format(last.context_tokens)} of ${numbers.format(window)} (${((last.context_tokens / window) * 100).toFixed(1)} %)`,
    );
    const priced = steps.filter((step) => step.cost !== undefined);
    if (priced.length === 0) parts.push('cost unknown (no prices for this model)');
    else {
      const turn = priced.reduce((sum, step) => sum + (step.cost ?? 0), 0);
      parts.push(`${dollars(turn)} this turn, ${dollars(last.session_cost)} this session`);
    }
    const near = nearLimit(last);
    if (near !== undefined) parts.push(near);
    return parts.join(' · ');
  }
}

/** A rate limit with under 10 % left after the turn's last step, in words, until it resets. */
function nearLimit(step: StepUsageEvent, now = Date.now()): string | undefined {
  const limit = (step.rate_limits ?? []).find(
    (item) =>
      item.limit > 0 &&
      item.remaining / item.limit < 0.1 &&
      (item.resets_at === undefined || Date.parse(item.resets_at) > now),
  );
  if (limit === undefined) return undefined;
  const until =
    limit.resets_at === undefined
      ? ''
      : ` until ${new Date(limit.resets_at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' })}`;
  return `near the provider’s rate limit: ${limit.name} ${numbers.format(limit.remaining)} of ${numbers.format(limit.limit)} left${until}`;
}
