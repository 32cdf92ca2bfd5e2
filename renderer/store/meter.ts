import type { StatusEvent } from '../../protocol/events.ts';

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

export interface MeterState {
  /** The model of the last figure. */
  model?: string;
  /** Tokens the model's context holds; null until the first estimate or step. */
  context_tokens: number | null;
  context_window?: number;
  /** True while the figure is the tokenizer's estimate, false once the provider's arrived. */
  estimated: boolean;
  /** US dollars for the session so far, over the steps whose prices are known. */
  session_cost: number;
  /** Steps of this session whose model had no known prices (the cost leaves them out). */
  unpriced_steps: number;
  turns: Record<string, TurnUsageView>;
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
        estimated: true,
      };
    case 'step_usage': {
      const turn = meter.turns[event.turn_id] ?? { input_tokens: 0, output_tokens: 0, cost: 0, unpriced_steps: 0 };
      return {
        ...withWindow(meter, event.context_window),
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
    default:
      return meter;
  }
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
