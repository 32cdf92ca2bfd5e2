import type { RateLimit, StatusEvent, Usage } from '../../protocol/events.ts';
import { outlookShare } from '../../protocol/context-outlook.ts';
import { usageCost, type ModelInfo } from '../../protocol/models.ts';
import { modelInfo } from '../model/model-info.ts';
import { estimateTokens, imageTokensFor } from '../model/token-estimate.ts';
import type { ChatMessage, ToolSpec } from '../model/types.ts';
import type { StatusSink } from '../status/sink.ts';
import { DEFAULT_THRESHOLD, type RequestShape } from './compaction.ts';
import { ContextCount, type Measured } from './context-count.ts';

// The context meter and the session's cost, step by step: before a request goes out, the
// tokenizer's estimate of it in the provider's terms (context-count.ts; live only), or its count by
// length while that stays below where the panel speaks of compaction; when the step
// ends, the provider's usage with the window and the cost (durable, so replay and resume know the
// session's cost so far), and what it tells about the estimate.

export type ModelInfoLookup = (modelId: string) => ModelInfo;

export interface TurnMeter {
  /** Emits `context_estimate` for the request about to be sent. */
  beforeStep(request: { system: string; messages: readonly ChatMessage[]; tools: readonly ToolSpec[] }): Promise<void>;
  /** Emits `step_usage` for the step that just ended, with the provider's rate limits when it stated them. */
  afterStep(usage: Usage, rateLimits?: RateLimit[]): Promise<void>;
}

/** The session's cost so far, from its durable events (the last step's running total). */
export function sessionCostOf(events: readonly StatusEvent[]): number {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'step_usage') return event.session_cost;
  }
  return 0;
}

export class UsageMeter {
  private cost: number;
  private readonly sink: StatusSink;
  private readonly lookup: ModelInfoLookup;
  /** The count compaction measures with too. */
  private readonly count: ContextCount;
  /** The compaction threshold (a share of the window; null: off), read before each step. */
  private readonly threshold: () => number | null;

  constructor(
    sink: StatusSink,
    lookup: ModelInfoLookup = (id) => modelInfo(id),
    history: readonly StatusEvent[] = [],
    count: ContextCount = new ContextCount(estimateTokens, history),
    threshold: () => number | null = () => DEFAULT_THRESHOLD,
  ) {
    this.sink = sink;
    this.lookup = lookup;
    this.cost = sessionCostOf(history);
    this.count = count;
    this.threshold = threshold;
  }

  /** US dollars over the steps whose prices are known. */
  get sessionCost(): number {
    return this.cost;
  }

  info(modelId: string): ModelInfo {
    return this.lookup(modelId);
  }

  forTurn(turnId: string, modelId: () => string): TurnMeter {
    /** The step's request and how it was measured, for the provider's figure to be read against. */
    let step: { request: RequestShape; measured: Measured } | null = null;
    return {
      beforeStep: async (sent) => {
        const model = modelId();
        const window = this.lookup(model).context_window;
        const request = { ...sent, imageTokens: imageTokensFor(model) };
        const near = window === undefined ? undefined : window * outlookShare(this.threshold());
        const measured = this.count.measure(request, model, near);
        step = { request, measured };
        await this.sink.emit({
          type: 'context_estimate',
          turn_id: turnId,
          model,
          context_tokens: measured.tokens,
          ...(window === undefined ? {} : { context_window: window }),
          ...(measured.estimated === undefined ? { by_length: true } : {}),
        });
      },
      afterStep: async (usage, rateLimits) => {
        const model = modelId();
        const info = this.lookup(model);
        const cost = info.prices ? usageCost(usage, info.prices) : undefined;
        if (cost !== undefined) this.cost += cost;
        const estimated = step?.measured.estimated ?? 0;
        if (step !== null) this.count.learnStep(model, step.request, step.measured, usage.input_tokens);
        step = null;
        await this.sink.emit({
          type: 'step_usage',
          turn_id: turnId,
          model,
          usage,
          context_tokens: usage.input_tokens + usage.output_tokens,
          ...(info.context_window === undefined ? {} : { context_window: info.context_window }),
          ...(cost === undefined ? {} : { cost }),
          session_cost: this.cost,
          ...(estimated > 0 ? { estimated_tokens: estimated } : {}),
          ...(rateLimits === undefined || rateLimits.length === 0 ? {} : { rate_limits: rateLimits }),
          ...(info.catalog === undefined ? {} : { catalog: info.catalog }),
        });
      },
    };
  }
}
