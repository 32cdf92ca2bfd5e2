import { z } from 'zod';
import type { Usage } from './events.ts';

// What the panel knows about a model: its context window, output limit and prices, and the
// per-model override a person can set in settings for a model the registry does not know.
// Prices are US dollars per million tokens, as providers publish them.

export const modelPricesSchema = z.object({
  input: z.number().nonnegative().max(10_000),
  output: z.number().nonnegative().max(10_000),
  /** Input tokens read from the provider's prompt cache; absent: billed as input. */
  cache_read: z.number().nonnegative().max(10_000).optional(),
  /** Input tokens written to the prompt cache; absent: billed as input. */
  cache_write: z.number().nonnegative().max(10_000).optional(),
});
export type ModelPrices = z.infer<typeof modelPricesSchema>;

export const modelOverrideSchema = z.object({
  context_window: z.number().int().positive().max(100_000_000).optional(),
  max_output: z.number().int().positive().max(100_000_000).optional(),
  prices: modelPricesSchema.optional(),
});
export type ModelOverride = z.infer<typeof modelOverrideSchema>;

/** Overrides by full model id (`anthropic:…`, `openai:…`, `compat:<baseURL>#<model>`). */
export const modelOverridesSchema = z.record(z.string().min(1).max(512), modelOverrideSchema);
export type ModelOverrides = z.infer<typeof modelOverridesSchema>;

/** Where a model's figures came from; an override wins over the others, field by field. */
export type ModelInfoSource = 'registry' | 'server' | 'override' | 'builtin' | 'unknown';

export interface ModelInfo {
  /** The model id as the panel names it. */
  id: string;
  /** The registry's entry the id resolved to (`claude-opus-4-1-20250805`), when there is one. */
  registry_id?: string;
  context_window?: number;
  max_output?: number;
  prices?: ModelPrices;
  source: ModelInfoSource;
  /** For a registry figure: which catalog and of when (`models.dev catalog of 2026-12-06`). */
  catalog?: string;
}

/** US dollars for one step's usage at these prices. Cache reads and writes are parts of `input_tokens`. */
export function usageCost(usage: Usage, prices: ModelPrices): number {
  const cacheRead = usage.cache_read_tokens ?? 0;
  const cacheWrite = usage.cache_write_tokens ?? 0;
  const plainInput = Math.max(0, usage.input_tokens - cacheRead - cacheWrite);
  const micro =
    plainInput * prices.input +
    cacheRead * (prices.cache_read ?? prices.input) +
    cacheWrite * (prices.cache_write ?? prices.input) +
    usage.output_tokens * prices.output;
  return micro / 1_000_000;
}

/** Adds one step's usage to a running total; the optional parts stay absent until one step has them. */
export function addUsage(total: Usage, step: Usage): Usage {
  const sum: Usage = {
    input_tokens: total.input_tokens + step.input_tokens,
    output_tokens: total.output_tokens + step.output_tokens,
  };
  for (const key of ['cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const) {
    if (total[key] !== undefined || step[key] !== undefined) sum[key] = (total[key] ?? 0) + (step[key] ?? 0);
  }
  return sum;
}

/** A model an OpenAI-compatible server offers, as the picker lists it. */
export interface ServerModelChoice {
  /** The id to pick: `compat:<baseURL>#<model>`. */
  id: string;
  /** The server's own name for it. */
  name: string;
  context_window?: number;
}
