import type { CallDescription, EchoShape } from './echo.ts';
import type { EventBase } from './events.ts';
import type { ProcessInfo } from './processes.ts';
import type { ToolProgress } from './tools.ts';
import type { WriteReview } from './review.ts';
import type { ApprovalAnswer } from './values.ts';

// The status stream's events of a tool call (docs/contracts.md): started, its progress, the
// question it asks and the answer, its end with the card's echo, a Code Mode program's nested
// calls, and the background processes a call started.

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
 * A background process started or ended (exec with background or tty): durable, so a replayed
 * session shows how each one ended. The last one written for a process is its state.
 */
export interface ProcessStateEvent extends EventBase {
  type: 'process_state';
  process: ProcessInfo;
}
