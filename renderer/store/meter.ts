import { FULL_PERCENT, SOON_POINTS } from '../../protocol/context-outlook.ts';
import type { RateLimit, StatusEvent } from '../../protocol/events.ts';

// The context meter and the cost, from the status stream: the tokenizer's estimate before a step,
// the provider's figure when the step ends (it replaces the estimate), a compaction's size after.
// A pure function of the events, so a reopened session shows what it showed live.

export interface TurnUsageView {
  input_tokens: number;
  output_tokens: number;
  /** US dollars over the turn's steps whose prices are known. */
  cost: number;
  /** Steps whose model had no known prices. */
  unpriced_steps: number;
}

/** Input tokens, and of them those read from the provider's prompt cache and written to it. */
export interface CacheTally {
  input: number;
  read: number;
  write: number;
}

/** What the provider said of its prompt cache: the last step's figures and the session's so far. */
export interface CacheView {
  last: CacheTally;
  session: CacheTally;
}

export interface MeterState {
  /** The model of the last figure. */
  model?: string;
  /** Tokens the model's context holds; null until the first estimate or step. */
  context_tokens: number | null;
  context_window?: number;
  /**
   * True while the figure is the tokenizer's estimate, `'length'` while it is counted from the texts'
   * length (far from compaction), false once the provider's arrived.
   */
  estimated: boolean | 'length';
  /** US dollars for the session so far, over the steps whose prices are known. */
  session_cost: number;
  /** Steps of this session whose model had no known prices (the cost leaves them out). */
  unpriced_steps: number;
  turns: Record<string, TurnUsageView>;
  /** Present once a step's provider reported cache reads or writes. */
  cache?: CacheView;
  /** US dollars the session's agents (its `agent` calls' children) cost, over their priced steps. */
  agents_cost?: number;
  /** The provider's rate limits after the last step that stated them, and its model. */
  limits?: { model: string; limits: RateLimit[] };
  /** Which catalog the window and prices come from, when a catalog's. */
  catalog?: string;
}

/** The session's own cost and its agents'. */
export function totalCost(meter: Pick<MeterState, 'session_cost' | 'agents_cost'>): number {
  return meter.session_cost + (meter.agents_cost ?? 0);
}

export function emptyMeter(): MeterState {
  return { context_tokens: null, estimated: false, session_cost: 0, unpriced_steps: 0, turns: {} };
}

/** The next meter, or the same object when the event does not concern it. */
export function reduceMeter(meter: MeterState, event: StatusEvent): MeterState {
  switch (event.type) {
    case 'context_estimate':
      return {
        ...withWindow(meter, event.context_window),
        model: event.model,
        context_tokens: event.context_tokens,
        estimated: event.by_length === true ? 'length' : true,
      };
    case 'step_usage': {
      const turn = meter.turns[event.turn_id] ?? { input_tokens: 0, output_tokens: 0, cost: 0, unpriced_steps: 0 };
      const cache = cacheOf(meter.cache, event.usage);
      const { catalog: _previous, ...rest } = meter;
      return {
        ...withWindow(rest, event.context_window),
        ...(event.catalog === undefined ? {} : { catalog: event.catalog }),
        ...(cache === undefined ? {} : { cache }),
        ...(event.rate_limits === undefined ? {} : { limits: { model: event.model, limits: event.rate_limits } }),
        model: event.model,
        context_tokens: event.context_tokens,
        estimated: false,
        session_cost: event.session_cost,
        unpriced_steps: meter.unpriced_steps + (event.cost === undefined ? 1 : 0),
        turns: {
          ...meter.turns,
          [event.turn_id]: {
            input_tokens: turn.input_tokens + event.usage.input_tokens,
            output_tokens: turn.output_tokens + event.usage.output_tokens,
            cost: turn.cost + (event.cost ?? 0),
            unpriced_steps: turn.unpriced_steps + (event.cost === undefined ? 1 : 0),
          },
        },
      };
    }
    case 'compaction':
      return { ...meter, context_tokens: event.tokens_after, estimated: true };
    case 'tool_completed': {
      // An agent's card says what its child cost; the child's steps are in its own session.
      const { result } = event;
      if (result.kind !== 'agent' || typeof result.cost !== 'number') return meter;
      return { ...meter, agents_cost: (meter.agents_cost ?? 0) + result.cost };
    }
    case 'turn_failed':
      // A refusal's headers are the newest word on the limits.
      return event.rate_limits === undefined || meter.model === undefined
        ? meter
        : { ...meter, limits: { model: meter.model, limits: event.rate_limits } };
    default:
      return meter;
  }
}

/** The cache figures with one more step's; unchanged while no provider reported any. */
function cacheOf(
  cache: CacheView | undefined,
  usage: { input_tokens: number; cache_read_tokens?: number; cache_write_tokens?: number },
): CacheView | undefined {
  if (usage.cache_read_tokens === undefined && usage.cache_write_tokens === undefined) return cache;
  const last = { input: usage.input_tokens, read: usage.cache_read_tokens ?? 0, write: usage.cache_write_tokens ?? 0 };
  const before = cache?.session ?? { input: 0, read: 0, write: 0 };
  return {
    last,
    session: { input: before.input + last.input, read: before.read + last.read, write: before.write + last.write },
  };
}

/** `94 % of 12,345 input tokens read from the cache, 655 written to it`. */
export function cacheLine(tally: CacheTally): string {
  const numbers = new Intl.NumberFormat('en');
  const share = tally.input > 0 ? Math.round((tally.read / tally.input) * 100) : 0;
  const written = tally.write > 0 ? `, ${numbers.format(tally.write)} written to it` : '';
  return `${share} % of ${numbers.format(tally.input)} input tokens read from the cache${written}`;
}

/** A figure without a window (a model the registry does not know) clears the previous model's. */
function withWindow(meter: MeterState, window: number | undefined): MeterState {
  const next = { ...meter };
  if (window === undefined) delete next.context_window;
  else next.context_window = window;
  return next;
}

/** The share of the window in use, 0–100 (past 100 when over), or null when the window or the figure is unknown. */
export function contextPercent(meter: Pick<MeterState, 'context_tokens' | 'context_window'>): number | null {
  if (meter.context_tokens === null || !meter.context_window) return null;
  return (meter.context_tokens / meter.context_window) * 100;
}

/** `$0.0123`, `$1.24`: cents for a dollar and more, four places below. */
export function formatCost(dollars: number): string {
  if (dollars === 0) return '$0.00';
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}

/** `12.3k`, `8k`, `1.2M`: short token counts for the footer. */
export function shortTokens(tokens: number): string {
  if (tokens < 1_000) return String(tokens);
  const short = (value: number, digits: number) => value.toFixed(digits).replace(/\.0$/, '');
  if (tokens < 1_000_000) return `${short(tokens / 1_000, tokens < 10_000 ? 1 : 0)}k`;
  return `${short(tokens / 1_000_000, 1)}M`;
}

/** The compaction threshold in settings (`compact_at_percent`): a percentage, null for off, undefined for the default. */
export function compactionSetting(settings: object | null): number | null | undefined {
  if (settings === null || !('compact_at_percent' in settings)) return undefined;
  const value = settings.compact_at_percent;
  return typeof value === 'number' || value === null ? value : undefined;
}

// When compaction is near, the meter says so in words (composer/ContextNote.tsx): "Compacts soon:
// 84 % of 200k", that it happens before the next request, or, with automatic compaction off, how
// full the context is.

/** The default threshold, as settings state it: percent of the window. */
export const DEFAULT_COMPACT_AT = 85;

export type OutlookLevel = 'soon' | 'due' | 'over' | 'full';

export interface CompactionOutlook {
  level: OutlookLevel;
  text: string;
}

/** What the person should know about compaction now; null while it is far off (or the window unknown). */
export function compactionOutlook(meter: MeterState, compactAt: number | null | undefined): CompactionOutlook | null {
  const percent = contextPercent(meter);
  if (percent === null || meter.context_window === undefined) return null;
  const used = `${Math.round(percent)} % of ${shortTokens(meter.context_window)}`;
  const threshold = compactAt === undefined ? DEFAULT_COMPACT_AT : compactAt;
  // Past the window the next request compacts first whatever the setting says.
  if (percent > 100) return { level: 'over', text: `Over the window: ${used}; compacts before the next request` };
  if (threshold === null)
    return percent >= FULL_PERCENT ? { level: 'full', text: `${used} used; automatic compaction is off` } : null;
  if (percent >= threshold) return { level: 'due', text: `Compacts before the next request: ${used}` };
  if (percent >= threshold - SOON_POINTS) return { level: 'soon', text: `Compacts soon: ${used}` };
  return null;
}

// The provider's rate limits in words: the status view's row, and a line when one is near (under
// 10 % left) until it resets, so a refusal is not the first the person hears of it.

/** Under this share left, a limit is near. */
const NEAR_LIMIT = 0.1;

/** `22:31:05`, in the panel's own clock. */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** `requests 45 of 50 left (resets 22:31:05)`. */
export function limitText(limit: RateLimit): string {
  const numbers = new Intl.NumberFormat('en');
  const resets = limit.resets_at === undefined ? '' : ` (resets ${clockTime(limit.resets_at)})`;
  return `${limit.name} ${numbers.format(limit.remaining)} of ${numbers.format(limit.limit)} left${resets}`;
}

/** The limits that are near, before they reset (`now` in ms). */
export function nearLimits(meter: Pick<MeterState, 'limits'>, now: number): RateLimit[] {
  return (meter.limits?.limits ?? []).filter(
    (limit) =>
      limit.limit > 0 &&
      limit.remaining / limit.limit < NEAR_LIMIT &&
      (limit.resets_at === undefined || Date.parse(limit.resets_at) > now),
  );
}

/** The line shown near a limit: which one, how much is left, when it resets, what happens meanwhile. */
export function nearLimitText(limits: readonly RateLimit[]): string | null {
  const first = limits[0];
  if (first === undefined) return null;
  const numbers = new Intl.NumberFormat('en');
  const share = Math.floor((first.remaining / first.limit) * 100);
  const until = first.resets_at === undefined ? '' : ` until ${clockTime(first.resets_at)}`;
  const more = limits.length > 1 ? ` (and ${limits.length - 1} more limit${limits.length > 2 ? 's' : ''})` : '';
  return (
    `Near the provider’s rate limit: ${numbers.format(first.remaining)} ${first.name} left of ${numbers.format(first.limit)} ` +
    `(${share} %)${until}${more}. Past it, requests are refused until it resets; another model can go on meanwhile.`
  );
}
