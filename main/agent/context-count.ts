import type { StatusEvent } from '../../protocol/events.ts';
import type { RequestShape } from './compaction.ts';

// One count of the model context for the meter and for compaction. The tokenizer's estimate of a
// request is all there is before the provider answers, and providers count differently (another
// tokenizer, the tools' schemas as they frame them): once a step ends, the provider's figure for
// that request says by how much, and every later estimate for the same model is scaled by it. So
// the meter's figure does not jump between the provider's count and the estimate, and compaction
// starts, and keeps its tail, by the figure the person reads.

/**
 * A provider figure further than this from the estimate is not a count of the same request (a
 * server that reports no usage, or made-up figures): it is not used.
 */
const MIN_RATIO = 0.5;
const MAX_RATIO = 2;

export class ContextCount {
  private readonly estimate: (request: RequestShape) => number;
  private scale: { model: string; ratio: number } | null = null;

  /** `history`: a resumed session's events; its last step's figures scale the estimates from the start. */
  constructor(estimate: (request: RequestShape) => number, history: readonly StatusEvent[] = []) {
    this.estimate = estimate;
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const event = history[index];
      if (event?.type !== 'step_usage' || event.estimated_tokens === undefined) continue;
      this.learn(event.model, event.estimated_tokens, event.usage.input_tokens);
      break;
    }
  }

  /** The tokenizer's own estimate of a request. */
  estimated(request: RequestShape): number {
    return this.estimate(request);
  }

  /** An estimate for `model`, in the terms of that provider's last figure (unchanged before there is one). */
  scaled(estimated: number, model: string): number {
    return this.scale?.model === model ? Math.round(estimated * this.scale.ratio) : estimated;
  }

  /** The request's tokens as the meter shows them and compaction measures them. */
  of(request: RequestShape, model: string): number {
    return this.scaled(this.estimated(request), model);
  }

  /** The provider counted `input` tokens for a request of `model` the tokenizer estimated at `estimated`. */
  learn(model: string, estimated: number, input: number): void {
    if (estimated <= 0) return;
    const ratio = input / estimated;
    if (ratio >= MIN_RATIO && ratio <= MAX_RATIO) this.scale = { model, ratio };
  }
}
