import type { ImageRef } from './composer.ts';
import type { HookDecision, HookEventName } from './hooks.ts';
import type { CallDescription, EchoShape } from './echo.ts';
import type { QueuedMessage } from './queue.ts';
import type { ProcessInfo } from './processes.ts';
import type { TodoItem } from './todos.ts';
import type { ToolProgress } from './tools.ts';
import type { WriteReview } from './review.ts';
import type { ApprovalAnswer } from './values.ts';

// The status stream (docs/contracts.md). Wire names stay as the protocol first named them
// (`tool_completed`, `execution_time`, `is_error`).

export type { ApprovalAnswer, ReasoningEffort } from './values.ts';

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

interface EventBase {
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

/**
 * A context message: project instructions the model received as a user-role message,
 * exactly as sent. Replay rebuilds the model context from it, so a resumed session sends the same.
 */
export interface ContextMessageEvent extends EventBase {
  type: 'context_message';
  turn_id: string;
  /** The instruction file, relative to the workspace (`AGENTS.md`, `web/AGENTS.md`). */
  source: string;
  /** The XML document the model received. */
  text: string;
  /** First sending, an edit since the last one, or the file is gone (the model is told to drop it). */
  change: 'loaded' | 'changed' | 'removed';
  /** Set when the file was longer than the cap: only its head was sent. */
  truncated?: { bytes: number; limit: number };
}

export interface ToolStartedEvent extends EventBase {
  type: 'tool_started';
  call_id: string;
  name: string;
  args: unknown;
  turn_id?: string;
  /** What the call does, from the tool's `describe(args)`; absent when the arguments were invalid or the tool unknown. */
  description?: CallDescription;
  /** The echo kind the tool answers with (its card); absent for an unknown tool. */
  echo_kind?: string;
}

export interface ToolProgressEvent extends EventBase {
  type: 'tool_progress';
  call_id: string;
  progress: ToolProgress;
}

export interface ApprovalRequest {
  /** Short line: what the tool wants to do. */
  title: string;
  /** Exactly what is asked: the command, the path, the fingerprint. */
  detail: string;
  /** Which gate category answers `session` apply to. */
  scope: string;
  /** Why this call is sensitive (a protected path), shown above the question. */
  warning?: string;
  /** The narrow rules an answer of `session` adds (`exec(npm test)`); absent: that answer is not offered. */
  always_rules?: string[];
  /** A write's whole proposed change as hunks, to accept, reject or edit one by one. */
  review?: WriteReview;
  /** A command that can be run first over a copy of the workspace, to see what it would change (Preview). */
  preview?: { command: string; cwd: string };
  /** A command no preview can show, and why (it keeps running, it runs on another machine). */
  preview_unavailable?: string;
}

export interface ToolApprovalRequestedEvent extends EventBase {
  type: 'tool_approval_requested';
  call_id: string;
  name: string;
  request: ApprovalRequest;
  /** Set for a nested Code Mode call: the card that shows the question is the parent's. */
  parent_call_id?: string;
}

export interface ToolApprovalResolvedEvent extends EventBase {
  type: 'tool_approval_resolved';
  call_id: string;
  answer: ApprovalAnswer;
  /** Nobody answered: the call or its turn was stopped while the question waited (answer is then `deny`). */
  stopped?: true;
}

export interface ToolCompletedEvent extends EventBase {
  type: 'tool_completed';
  call_id: string;
  name: string;
  /** Milliseconds from start to final content. */
  execution_time: number;
  is_error: boolean;
  /** The card's echo (protocol/echo.ts): the tool's own kind, or `text` (the uiPreview) for failures and plain tools. */
  result: EchoShape;
  /** The checkpoint of the workspace taken just before the call ran, for calls that may change it. */
  checkpoint?: ToolCheckpoint;
}

/** A checkpoint taken before a call: what a rewind from its card goes back to. */
export interface ToolCheckpoint {
  id: string;
  /** Files over the size limit, recorded by hash only: a rewind cannot bring them back. */
  not_restorable?: string[];
  /** Set when the storage limit removed older checkpoints to make room. */
  notice?: string;
  /** The calls whose checkpoints the storage limit removed at this one: their cards can no longer rewind the code. */
  pruned_calls?: string[];
  /** Every checkpoint id removed then (a rewind's "Undo" is one). */
  pruned?: string[];
  /** Set when checkpoints were turned off: none was taken (`id` is empty) and the card cannot rewind the code. */
  off?: true;
}

export interface ToolCodeDispatchEvent extends EventBase {
  type: 'tool_code_dispatch';
  parent_call_id: string;
  call_id: string;
  name: string;
  args: unknown;
  content: string;
  /** The nested call's echo, as its own card would have had it: the trace shows it. */
  echo: EchoShape;
  /** What the nested call does, from its tool's `describe(args)`: the trace's line instead of raw arguments. */
  description?: CallDescription;
  is_error: boolean;
  execution_time: number;
}

/**
 * One model step's usage, as the provider reported it when the step ended (durable). The context
 * meter and the session's cost come from these; replay sums them.
 */
export interface StepUsageEvent extends EventBase {
  type: 'step_usage';
  turn_id: string;
  /** The model id the step was sent to. */
  model: string;
  usage: Usage;
  /** Tokens the model's context holds after this step: its input plus its output. */
  context_tokens: number;
  /** The model's context window, when it is known (registry, server, or an override). */
  context_window?: number;
  /** US dollars for this step; absent when the model's prices are unknown. */
  cost?: number;
  /** US dollars for the whole session so far, this step included, over the steps whose prices are known. */
  session_cost: number;
  /**
   * The tokenizer's estimate of this step's request: with `usage.input_tokens` it tells how the
   * provider counts against the estimate (main/agent/context-count.ts), also after a resume.
   */
  estimated_tokens?: number;
  /** The provider's rate limits after this step, when its response stated them. */
  rate_limits?: RateLimit[];
  /** Which catalog the window and prices come from (`models.dev catalog of 2026-12-06`). */
  catalog?: string;
}

/**
 * Live only: the tokenizer's estimate of the request about to be sent, before the provider's
 * figure arrives (the step's `step_usage` replaces it), scaled as the provider's last figure for
 * the model counted against its estimate.
 */
export interface ContextEstimateEvent extends EventBase {
  type: 'context_estimate';
  turn_id: string;
  model: string;
  context_tokens: number;
  context_window?: number;
}

/** Why the model context was compacted: the threshold, a person's request, or a model whose window it no longer fits. */
export type CompactionTrigger = 'auto' | 'manual' | 'window';

/**
 * The model context was replaced by a summary plus what was kept verbatim. Durable: replay and
 * resume rebuild the same context from it (the summary is never made again). The transcript keeps
 * every earlier card; only what the model is sent changes.
 */
export interface CompactionEvent extends EventBase {
  type: 'compaction';
  /** The turn it happened in; absent for a compaction by hand between turns. */
  turn_id?: string;
  trigger: CompactionTrigger;
  /** The model that wrote the summary. */
  model: string;
  summary: string;
  /** What the person asked to keep (`/compact <focus>`), if anything. */
  focus?: string;
  /** Estimated tokens of the next request before and after. */
  tokens_before: number;
  tokens_after: number;
  /** How many trailing messages of the context stay verbatim after the summary (whole model steps). */
  kept_messages: number;
  /** The last user message, repeated verbatim after the summary when it is not among the kept messages. */
  kept_user_message?: string;
  /** Project instructions (AGENTS.md …) as last sent, repeated verbatim after the summary. */
  kept_instructions?: string[];
  /** The calls whose results are among the kept messages. */
  kept_call_ids: string[];
  /** Why it happened when that is not obvious (a smaller window). */
  notice?: string;
}

/** A compaction could not be made; the context is as it was. Durable, so its card replays. */
export interface CompactionFailedEvent extends EventBase {
  type: 'compaction_failed';
  turn_id?: string;
  trigger: CompactionTrigger;
  error: string;
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
 * A user-role message the app adds for the model at a step's start: the todo list after the person
 * changed it or after a compaction, an approved plan. Exactly as sent; replay rebuilds it.
 */
export interface ContextNoteEvent extends EventBase {
  type: 'context_note';
  turn_id: string;
  about: 'todos' | 'plan';
  text: string;
  /** The plan_propose call an approved plan came from. */
  call_id?: string;
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
 * A background process started or ended (exec with background or tty): durable, so a replayed
 * session shows how each one ended. The last one written for a process is its state.
 */
export interface ProcessStateEvent extends EventBase {
  type: 'process_state';
  process: ProcessInfo;
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
