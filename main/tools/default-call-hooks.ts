import type { CallHook } from './call-hooks.ts';
import type { CallCheckpoints } from './checkpoints/call-checkpoints.ts';
import { checkpointHook } from './checkpoints/checkpoint-hook.ts';
import { writeReviewHook } from './files/write-review-hook.ts';
import { nestedWritesHook } from './nested-writes.ts';

// The hooks a session's registry runs its calls with, in order. A person's own hooks (PreToolUse,
// PostToolUse) go in `before`: they see the call before its checkpoint is taken, and a rewrite of
// its arguments is judged by the gate again.

export interface DefaultHookOptions {
  /** Snapshots of the workspace before and after calls that may change it; none without. */
  checkpoints?: CallCheckpoints;
  /** Hooks that run first (a person's PreToolUse / PostToolUse). */
  before?: readonly CallHook[];
}

export function defaultCallHooks(options: DefaultHookOptions = {}): CallHook[] {
  return [
    ...(options.before ?? []),
    writeReviewHook(),
    ...(options.checkpoints ? [checkpointHook(options.checkpoints)] : []),
    nestedWritesHook(),
  ];
}
