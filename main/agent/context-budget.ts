import { modelInfo } from '../model/model-info.ts';
import { requestLength } from '../model/token-bounds.ts';
import { estimateTokens, tokenizerLoaded, warmTokenizer } from '../model/token-estimate.ts';
import { DEFAULT_THRESHOLD, type ContextBudget, type RequestShape } from './compaction.ts';
import type { CountOptions } from './context-count.ts';

// Where compaction learns a model's window and the size of a request: the model registry (with the
// settings' overrides, when the host passes its own lookup) and the tokenizer estimate, with its
// count by length (model/token-bounds.ts) when the estimate is the tokenizer's.

export interface BudgetOptions {
  /** A model's window; default: the registry's figure for the id. */
  window?: (modelId: string) => number | undefined;
  /** Default: the tokenizer estimate (model/token-estimate.ts). */
  estimate?: (request: RequestShape) => number;
  /** The fraction of the window past which the next request compacts first; null: off. Read before each step. */
  threshold?: () => number | null;
}

export function contextBudget(options: BudgetOptions = {}): ContextBudget {
  return {
    window: options.window ?? ((id) => modelInfo(id).context_window),
    estimate: options.estimate ?? estimateTokens,
    threshold: options.threshold ?? (() => DEFAULT_THRESHOLD),
    ...(options.estimate === undefined ? { byLength: requestLength } : {}),
  };
}

/** A budget whose window is fixed, whatever the model (tests, a window the person states). */
export function fixedBudget(options: { window?: number; threshold?: number | null }): ContextBudget {
  const threshold = options.threshold === undefined ? DEFAULT_THRESHOLD : options.threshold;
  return contextBudget({ window: () => options.window, threshold: () => threshold });
}

/** How long after a request's count the tables start loading, when it came near the first line. */
const WARM_DELAY_MS = 250;

/** What a ContextCount needs to count a budget's requests by length, when the budget can. */
export function lengthCount(budget: ContextBudget): CountOptions {
  if (budget.byLength === undefined) return {};
  return {
    length: (request) => budget.byLength?.(request),
    ready: tokenizerLoaded,
    // By then the request is on its way: the tables load while the model answers.
    soon: () => warmTokenizer(WARM_DELAY_MS),
  };
}
