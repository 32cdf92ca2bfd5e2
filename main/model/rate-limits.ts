import type { RateLimit } from '../../protocol/events.ts';

// The providers' rate limits, read from their response headers, so the person sees what is left
// before a limit bites, and a request refused for one says which limit and when it resets.
//
// Anthropic: `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`,
// the reset an RFC 3339 time. OpenAI: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, the
// reset a duration (`1s`, `6m0s`, `20ms`). Both: `retry-after` in seconds on a refusal.

type HeaderSource = { get(name: string): string | null } | Record<string, string> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  return (headers as Record<string, string>)[name];
}

const ANTHROPIC_KINDS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;
const OPENAI_KINDS = ['requests', 'tokens'] as const;

/** `6m0s`, `1.5s`, `20ms`, `1h2m3s` → milliseconds. */
export function durationMs(text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text.trim()) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  return parts.reduce((sum, part) => sum + Number(part[1]) * (unit[part[2] ?? ''] ?? 0), 0);
}

function count(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The limits a response states, each with its reset as an ISO time; empty when it states none. */
export function rateLimitsOf(headers: HeaderSource, now = Date.now()): RateLimit[] {
  const limits: RateLimit[] = [];
  for (const kind of ANTHROPIC_KINDS) {
    const limit = count(header(headers, `anthropic-ratelimit-${kind}-limit`));
    const remaining = count(header(headers, `anthropic-ratelimit-${kind}-remaining`));
    if (limit === undefined || remaining === undefined) continue;
    const reset = Date.parse(header(headers, `anthropic-ratelimit-${kind}-reset`) ?? '');
    limits.push({
      name: kind.replace('-', ' '),
      limit,
      remaining,
      ...(Number.isFinite(reset) ? { resets_at: new Date(reset).toISOString() } : {}),
    });
  }
  for (const kind of OPENAI_KINDS) {
    const limit = count(header(headers, `x-ratelimit-limit-${kind}`));
    const remaining = count(header(headers, `x-ratelimit-remaining-${kind}`));
    if (limit === undefined || remaining === undefined) continue;
    const reset = durationMs(header(headers, `x-ratelimit-reset-${kind}`) ?? '');
    limits.push({
      name: kind,
      limit,
      remaining,
      ...(reset === undefined ? {} : { resets_at: new Date(now + reset).toISOString() }),
    });
  }
  return limits;
}

/** The limit that is nearest to running out: the one a refusal is most likely about. */
export function tightestLimit(limits: readonly RateLimit[]): RateLimit | undefined {
  return limits.toSorted((a, b) => a.remaining / (a.limit || 1) - b.remaining / (b.limit || 1))[0];
}

const numbers = new Intl.NumberFormat('en');

function clock(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/**
 * What a request refused for a rate limit tells the person: which limit, when it resets, what to
 * do; and when trying again can work.
 */
export function limitRefusal(
  headers: HeaderSource,
  retryAfterMs: number | undefined,
  now = Date.now(),
): { text: string; retryAt?: string } {
  const limits = rateLimitsOf(headers, now);
  const used = limits.filter((limit) => limit.remaining === 0);
  const tight = used[0] ?? tightestLimit(limits);
  const which =
    tight === undefined
      ? 'The provider’s rate limit was reached'
      : `The provider’s limit on ${tight.name} was reached (${numbers.format(tight.remaining)} of ${numbers.format(tight.limit)} left)`;
  const resets = [retryAfterMs === undefined ? undefined : now + retryAfterMs, Date.parse(tight?.resets_at ?? '')]
    .filter((time): time is number => time !== undefined && Number.isFinite(time))
    .sort((a, b) => b - a)[0];
  if (resets === undefined) return { text: `${which}. Wait a little and press Retry, or switch to another model.` };
  const retryAt = new Date(resets).toISOString();
  const seconds = Math.max(1, Math.ceil((resets - now) / 1000));
  return {
    text: `${which}; it resets at ${clock(retryAt)} (in ${seconds} s). Wait until then — Retry is offered then — or switch to another model.`,
    retryAt,
  };
}
