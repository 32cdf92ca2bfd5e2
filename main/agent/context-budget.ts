import { modelInfo } from '../model/model-info.ts';
import { estimateTokens } from '../model/token-estimate.ts';
import { DEFAULT_THRESHOLD, type ContextBudget, type RequestShape } from './compaction.ts';

// Where compaction learns a model's window and the size of a request: the model registry (with the
// settings' overrides, when the host passes its own lookup) and the tokenizer estimate.

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
  };
}

/** A budget whose window is fixed, whatever the model (tests, a window the person states). */
export function fixedBudget(options: { window?: number; threshold?: number | null }): ContextBudget {
  const threshold = options.threshold === undefined ? DEFAULT_THRESHOLD : options.threshold;
  return contextBudget({ window: () => options.window, threshold: () => threshold });
}
