import type { EventBase, RateLimit, Usage } from './events.ts';

// The status stream's events about the model's context (docs/contracts.md): what it was sent
// besides the conversation (project instructions, the app's notes), what each step used and cost,
// the estimate before a step, and its compaction.

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
 * the model counted against its estimate; or, while the context is far below where compaction is
 * near, its count by length (`by_length`), scaled by that figure against the same count.
 */
export interface ContextEstimateEvent extends EventBase {
  type: 'context_estimate';
  turn_id: string;
  model: string;
  context_tokens: number;
  context_window?: number;
  /** The figure is counted from the texts' length, not by the tokenizer. */
  by_length?: true;
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
