import type { CallDescription } from '../../protocol/echo.ts';
import type { ToolCompletedEvent } from '../../protocol/events.ts';
import type { ReviewChoice, ReviewedChange, WriteReview } from '../../protocol/review.ts';
import type { ToolCall } from './call-context.ts';
import type { ToolContext, ToolDefinition } from './tool.ts';

// What a feature that cuts across calls plugs into a call's phases (tool-call.ts): checkpoints,
// review before a write lands, nested-write batching, a person's own PreToolUse / PostToolUse
// commands. Whoever builds the registry installs them, in order (default-call-hooks.ts for a
// session's); the pipeline itself knows none of them, nor any tool family.

/** What a hook sees of a call; the same object from its question to its settling. */
export interface HookedCall {
  readonly call: ToolCall;
  readonly tool: ToolDefinition<unknown, unknown>;
  /** The arguments as the call runs with them: checked by the tool's schema, maybe rewritten by a hook. */
  readonly args: unknown;
  readonly description: CallDescription | undefined;
  /** The context execute gets: the confined paths, the signal. */
  readonly context: ToolContext;
}

/** What a before-execute hook decides; nothing: the call goes on as it is. */
export type BeforeExecute =
  /** The call does not run; the model reads this instead. */
  | { deny: string }
  /** The call runs with these arguments instead, checked, confined and judged by the gate again. */
  | { args: unknown }
  /** What its completion event carries besides the echo (the checkpoint taken before it). */
  | { completion: CompletionMarks };

export type CompletionMarks = Pick<ToolCompletedEvent, 'checkpoint'>;

/** How a call ended, as an after-execute hook sees it. */
export interface Executed {
  content: string;
  isError: boolean;
  /** The tool's result, when it ran and its result was rendered. */
  result?: unknown;
}

/** What an after-execute hook adds: context the model reads after the tool's own text. */
export interface AfterExecute {
  context?: string;
}

/** A question about the call is going to the person: more to show with it (a write's hunks). */
export interface QuestionOffer {
  /** The change as hunks, computed only when the question goes to someone who can answer per hunk. */
  review(): Promise<WriteReview | null>;
  /** The person chose hunks: what execute gets as `ctx.review`. */
  chosen(choice: ReviewChoice): ReviewedChange | undefined;
}

export interface CallHook {
  /** Names the hook where its failure is reported. */
  name: string;
  /** The gate asks the person about the call (it did not simply admit it). */
  question?(hooked: HookedCall): QuestionOffer | undefined;
  /** Admitted, about to run: may refuse it, rewrite its arguments, or mark its completion. A throw refuses it. */
  beforeExecute?(hooked: HookedCall): Promise<BeforeExecute | undefined> | BeforeExecute | undefined;
  /** Execute ended, however it ended; before the post-execution policies. */
  afterExecute?(hooked: HookedCall, executed: Executed): Promise<AfterExecute | undefined> | AfterExecute | undefined;
  /**
   * The call's records (its content, its completion, its start) are on their way to the store and
   * the sink as `written`: what its caller waits for before it hears the outcome, instead.
   */
  settle?(call: ToolCall, written: Promise<unknown>): Promise<unknown>;
}
