import type { ReasoningEffort, ToolCallRequest, Usage } from '../../protocol/events.ts';

// The neutral conversation the agent loop keeps and the session log records. Adapters translate
// it to each provider's wire format, one model step at a time.

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls: ToolCallRequest[] }
  | { role: 'tool'; call_id: string; name: string; content: string; is_error: boolean };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  effort: ReasoningEffort;
  signal: AbortSignal;
}

export type ModelStreamPart =
  | { type: 'text'; text: string }
  /** Only complete calls: a half-received call is never emitted. */
  | { type: 'tool_call'; call: ToolCallRequest }
  | { type: 'finish'; stop_reason: string; usage: Usage };

export interface ModelAdapter {
  /** `anthropic:<model>`, `openai:<model>`, `compat:<baseURL>#<model>`, `demo`. */
  readonly id: string;
  /** One model step. Throws `ModelStreamError` when the stream fails, stalls or ends early. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

export class ModelStreamError extends Error {
  override name = 'ModelStreamError';
}
