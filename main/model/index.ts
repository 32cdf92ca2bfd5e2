import { createDemoAdapter } from './demo.ts';
import { createProviderAdapter, type ModelAdapterOptions } from './provider-adapter.ts';
import { parseModelId } from './providers.ts';
import { ModelConfigError, type ModelAdapter } from './types.ts';

// The model layer's entry: one adapter per model id. See types.ts for the adapter contract.

export type { ModelAdapterOptions } from './provider-adapter.ts';
export type { ModelSpec } from './providers.ts';
export { parseModelId, serverModelOf } from './providers.ts';
export type {
  ChatMessage,
  ModelAdapter,
  ModelFailureKind,
  ModelRequest,
  ModelStreamPart,
  ReasoningBlock,
  ToolSpec,
} from './types.ts';
export { ModelConfigError, ModelStreamError } from './types.ts';

/**
 * `anthropic:<model>`, `openai:<model>`, `compat:<baseURL>#<model>` or `demo`.
 * Throws `ModelConfigError` for an unknown id or a missing key; nothing is sent before a step.
 */
export function createModelAdapter(id: string, options: ModelAdapterOptions = {}): ModelAdapter {
  const parsed = parseModelId(id);
  if (!parsed.ok) throw new ModelConfigError(parsed.error);
  if (parsed.spec.family === 'demo') return createDemoAdapter(options);
  return createProviderAdapter(id, parsed.spec, options);
}
