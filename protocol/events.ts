import type { ImageRef } from './composer.ts';
import type { HookDecision, HookEventName } from './hooks.ts';
import type { QueuedMessage } from './queue.ts';
import type { TodoItem } from './todos.ts';
import type {
  CompactionEvent,
  CompactionFailedEvent,
  ContextEstimateEvent,
  ContextMessageEvent,
  ContextNoteEvent,
  StepUsageEvent,
} from './context-events.ts';
import type {
  ProcessStateEvent,
  ToolApprovalRequestedEvent,
  ToolApprovalResolvedEvent,
  ToolCodeDispatchEvent,
  ToolCompletedEvent,
  ToolProgressEvent,
  ToolStartedEvent,
} from './tool-events.ts';

// The status stream (docs/contracts.md): the conversation's and the turn's events here, a tool
// call's in tool-events.ts, the model context's in context-events.ts. Wire names stay as the
// protocol first named them (`tool_completed`, `execution_time`, `is_error`).

export type { ApprovalAnswer, ReasoningEffort } from './values.ts';
export type * from './context-events.ts';
export type * from './tool-events.ts';

export interface Usage {
  /** Every input token of the request, cache reads and writes included. */
  input_tokens: number;
  /** Every output token, reasoning included. */
  output_tokens: number;
  /** Of `input_tokens`: read from the provider's prompt cache. Absent: the provider did not say. */
  cache_read_tokens?: number;
  /** Of `input_tokens`: written to the prompt cache. */
  cache_write_tokens?: number;
  /** Of `output_tokens`: the model's reasoning. */
  reasoning_tokens?: number;
}

export interface ToolCallRequest {
  call_id: string;
  name: string;
  args: unknown;
}

export interface EventBase {
  /** Session-wide, strictly increasing. */
  seq?: number;
  /** ISO time the event was emitted. */
  at?: string;
}

export interface UserMessageEvent extends EventBase {
  type: 'user_message';
  turn_id: string;
  text: string;
  /**
   * The calls (read_file, list_dir) made for the files and folders the person mentioned with `@`:
   * their content goes to the model inside this message, and each shows as its card.
   */
  mention_calls?: string[];
  /** Images attached to the message, kept in the session's folder by hash. */
  images?: ImageRef[];
  /** Sent while the turn ran and delivered at its next safe point: where the steer entered the turn. */
  steer?: true;
  /** The queued message (protocol/queue.ts) this delivers: it leaves the queue. */
  queued_id?: string;
}

export interface TurnStartedEvent extends EventBase {
  type: 'turn_started';
  turn_id: string;
  model: string;
}

export interface TurnCompletedEvent extends EventBase {
  type: 'turn_completed';
  turn_id: string;
  usage: Usage;
  stop_reason: string;
}

/** One of a provider's rate limits, as its response headers stated it. */
export interface RateLimit {
  /** What it counts: `requests`, `tokens`, `input tokens`, `output tokens`. */
  name: string;
  limit: number;
  remaining: number;
  /** When it is whole again (an ISO time), when the provider said. */
  resets_at?: string;
}

export interface TurnFailedEvent extends EventBase {
  type: 'turn_failed';
  turn_id: string;
  /** A request refused for a rate limit: when trying again can work (an ISO time). */
  retry_at?: string;
  /** The rate limits the refusal's response stated. */
  rate_limits?: RateLimit[];
  error: string;
  usage?: Usage;
  /** True when the person stopped the turn. */
  aborted?: boolean;
}

export interface AssistantDeltaEvent extends EventBase {
  type: 'assistant_delta';
  turn_id: string;
  text: string;
}

export interface AssistantMessageEvent extends EventBase {
  type: 'assistant_message';
  turn_id: string;
  text: string;
  tool_calls: ToolCallRequest[];
  /** Set when the stream failed and the text is what arrived before it did. */
  partial?: boolean;
}

/** Live only: a piece of the model's reasoning as it streams. Never emitted when effort is off. */
export interface ReasoningDeltaEvent extends EventBase {
  type: 'reasoning_delta';
  turn_id: string;
  text: string;
}

/** One step's reasoning, whole, written before the step's assistant_message. */
export interface ReasoningEvent extends EventBase {
  type: 'reasoning';
  turn_id: string;
  text: string;
  /** Milliseconds from the first reasoning delta to the step's first text, call or end. */
  duration_ms: number;
}

export type StatusEvent =
  | UserMessageEvent
  | TurnStartedEvent
  | TurnCompletedEvent
  | TurnFailedEvent
  | AssistantDeltaEvent
  | AssistantMessageEvent
  | ReasoningDeltaEvent
  | ReasoningEvent
  | ContextMessageEvent
  | ToolStartedEvent
  | ToolProgressEvent
  | ToolApprovalRequestedEvent
  | ToolApprovalResolvedEvent
  | ToolCompletedEvent
  | ToolCodeDispatchEvent
  | CompactionEvent
  | CompactionFailedEvent
  | StepUsageEvent
  | ContextEstimateEvent
  | CodeRewoundEvent
  | QueueEvent
  | HookRanEvent
  | ProcessStateEvent
  | TodosEvent
  | ContextNoteEvent
  | PlanKeptEvent;

/** The todo list (protocol/todos.ts), whole, as the model's todo_write or the person left it. Durable. */
export interface TodosEvent extends EventBase {
  type: 'todos';
  todos: TodoItem[];
  by: 'model' | 'person';
  turn_id?: string;
}

/**
 * The person chose Keep planning on a proposed plan: its card offers no answer any more. Durable, so
 * a reload or a resume shows the card as answered. Nothing of it reaches the model.
 */
export interface PlanKeptEvent extends EventBase {
  type: 'plan_kept';
  /** The plan_propose call whose plan is kept unanswered. */
  call_id: string;
}

/**
 * The messages waiting to be delivered, whole, after each change (a message sent while a turn runs,
 * an edit, a move, a removal, Stop holding them, Send now): durable, so a crash loses none of them.
 */
export interface QueueEvent extends EventBase {
  type: 'queue';
  items: QueuedMessage[];
  held?: true;
}

/**
 * A hook's command ran (or could not): what it decided and what it printed. Durable, so the card's
 * line and the decision replay without running the hook again.
 */
export interface HookRanEvent extends EventBase {
  type: 'hook_ran';
  hook_event: HookEventName;
  /** The command as the settings file has it. */
  command: string;
  /** The settings file it came from. */
  source: string;
  turn_id?: string;
  /** The call it acted on (PreToolUse, PostToolUse): its card shows the line. */
  call_id?: string;
  decision: HookDecision;
  /** What it said of its decision (a deny's reason, a block's, why it failed). */
  reason?: string;
  /** What it added for the model. */
  context?: string;
  /** How the command ended: exited, timed_out, cancelled, signalled, failed_to_start. */
  status: string;
  exit_code: number | null;
  duration_ms: number;
  /** Its stdout and stderr, cut to the last 16 KiB of each. */
  stdout: string;
  stderr: string;
  /** Set when it printed more than was kept. */
  output_cut?: true;
  /** Set when the person should hear of it (a timeout, invalid output): shown on the line. */
  notice?: string;
  /** For a PostToolUse hook: the files it changed (the formatter's rewrite), relative to the workspace. */
  changed?: string[];
}

/**
 * A code rewind from the panel, written to the session so its card ("Undo rewind") is there after a
 * reload too. A later rewind whose target is `undo` undoes it.
 */
export interface CodeRewoundEvent extends EventBase {
  type: 'code_rewound';
  /** The call, message or checkpoint the code went back to before. */
  target: string;
  /** What the person pointed at, in words: "write_file notes.md", "your message", "the rewind". */
  what: string;
  restored: string[];
  removed: string[];
  /** Files the person changed since and chose to keep. */
  kept: string[];
  not_restorable: string[];
  /** The checkpoint taken just before the rewind: rewinding the code to it undoes this. */
  undo: string;
}

export type StatusEventType = StatusEvent['type'];

/** Events that are live only: never written to a session, never sent to the model. */
export type LiveOnlyEventType = 'assistant_delta' | 'reasoning_delta' | 'tool_progress' | 'context_estimate';
