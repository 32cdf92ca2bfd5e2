import type { ContextBudget, RequestShape } from './compaction.ts';
import { DEFAULT_THRESHOLD } from './compaction.ts';

// A context budget from plain values, for hosts and tests that know the window themselves.

/** About four characters a token over the request as JSON: a fallback for hosts that pass no estimate. */
export function roughEstimate(request: RequestShape): number {
  return Math.ceil(JSON.stringify([request.system, request.messages, request.tools]).length / 4);
}

export function fixedBudget(options: {
  window?: number;
  threshold?: number | null;
  estimate?: (request: RequestShape) => number;
}): ContextBudget {
  const threshold = options.threshold === undefined ? DEFAULT_THRESHOLD : options.threshold;
  return {
    window: () => options.window,
    estimate: options.estimate ?? roughEstimate,
    threshold: () => threshold,
  };
}
