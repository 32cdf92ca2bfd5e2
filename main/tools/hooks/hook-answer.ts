import type { HookDecision, HookEventName } from '../../../protocol/hooks.ts';
import { isRecord } from '../../../protocol/json.ts';
import type { HookCommand } from './hook-config.ts';
import type { HookRun } from './hook-runner.ts';

// How a hook's run reads as a decision, as Claude Code reads it:
// - exit 0: its stdout, when it is a JSON object, says what to do (below); plain text is context
//   for the model at UserPromptSubmit and SessionStart, and only shown elsewhere;
// - exit 2: deny the call (PreToolUse) or block (UserPromptSubmit, Stop, SubagentStop), with its
//   stderr as the reason; after a call (PostToolUse) the model reads it;
// - any other end (another exit code, a timeout, a command that cannot start, stdout that is not
//   JSON): no decision, and the person is told.
// JSON: {"hookSpecificOutput": {"permissionDecision": "allow"|"deny"|"ask",
// "permissionDecisionReason": "…", "updatedInput": {…}, "additionalContext": "…"}, "decision":
// "block"|"approve", "reason": "…", "continue": false, "stopReason": "…", "systemMessage": "…"}.

export interface HookAnswer {
  decision: HookDecision;
  reason?: string;
  /** What the model is told. */
  context?: string;
  /** The arguments the call runs with instead (PreToolUse). */
  args?: Record<string, unknown>;
  /** What the person should hear (a failure, a `systemMessage`). */
  notice?: string;
}

/** Events where exit code 2 and `"decision": "block"` stop what was about to happen. */
const BLOCKS: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'Stop', 'SubagentStop']);
/** Events where plain stdout is context for the model. */
const PLAIN_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

export function answerOf(hook: HookCommand, run: HookRun): HookAnswer {
  const { event } = hook;
  if (run.status === 'timed_out') {
    const notice = `The hook timed out after ${hook.timeoutS} s and was stopped.`;
    if (hook.onTimeout === 'deny') return refusal(event, `${notice} It is set to deny when it does.`, notice);
    return { decision: 'failed', notice: `${notice} It decided nothing.` };
  }
  if (run.status === 'cancelled') return { decision: 'failed', notice: 'The hook was stopped before it answered.' };
  if (run.status === 'failed_to_start')
    return { decision: 'failed', notice: `The hook could not start: ${run.error ?? 'unknown error'}.` };
  if (run.status === 'signalled' || run.exitCode === null)
    return { decision: 'failed', notice: 'The hook was ended by a signal before it answered; it decided nothing.' };
  const stderr = run.stderr.trim();
  if (run.exitCode === 2) {
    const reason = stderr || `The hook ${JSON.stringify(hook.command)} exited with code 2 and said nothing.`;
    return refusal(event, reason);
  }
  if (run.exitCode !== 0)
    return {
      decision: 'failed',
      notice: `The hook exited with code ${run.exitCode}; it decided nothing.${stderr ? ` It said: ${firstLines(stderr)}` : ''}`,
    };
  const stdout = run.stdout.trim();
  if (!stdout.startsWith('{')) {
    if (stdout !== '' && PLAIN_CONTEXT.has(event)) return { decision: 'context', context: stdout };
    return { decision: 'none' };
  }
  if (run.cut.stdout > 0)
    return {
      decision: 'failed',
      notice: `The hook's answer was cut at ${run.stdout.length} bytes (it printed ${run.stdout.length + run.cut.stdout}); it decided nothing.`,
    };
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    return {
      decision: 'failed',
      notice: `The hook's output is not valid JSON (${(error as Error).message}); it begins ${JSON.stringify(stdout.slice(0, 60))}. It decided nothing.`,
    };
  }
  if (!isRecord(json)) return { decision: 'none' };
  return jsonAnswer(event, json);
}

function jsonAnswer(event: HookEventName, json: Record<string, unknown>): HookAnswer {
  const specific = isRecord(json['hookSpecificOutput']) ? json['hookSpecificOutput'] : {};
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value : undefined;
  const notice = text(json['systemMessage']);
  const withNotice = (answer: HookAnswer): HookAnswer => (notice ? { ...answer, notice } : answer);
  const reason = text(specific['permissionDecisionReason']) ?? text(json['reason']) ?? text(json['stopReason']);
  if (json['continue'] === false)
    return withNotice(refusal(event, text(json['stopReason']) ?? reason ?? 'A hook ended it.'));
  const context = text(specific['additionalContext']);
  if (event === 'PreToolUse') {
    const decision = specific['permissionDecision'] ?? legacyDecision(json['decision']);
    if (decision === 'deny') return withNotice({ decision: 'deny', reason: reason ?? 'A hook denied it.' });
    if (decision === 'ask') return withNotice({ decision: 'ask', ...(reason ? { reason } : {}) });
    if (isRecord(specific['updatedInput']))
      return withNotice({ decision: 'rewrite', args: specific['updatedInput'], ...(reason ? { reason } : {}) });
    if (decision === 'allow') return withNotice({ decision: 'allow', ...(reason ? { reason } : {}) });
    return withNotice({ decision: 'none' });
  }
  if (json['decision'] === 'block') {
    if (BLOCKS.has(event)) return withNotice({ decision: 'block', reason: reason ?? 'A hook blocked it.' });
    // After a call has run nothing can be undone: the model reads the reason instead.
    if (event === 'PostToolUse')
      return withNotice({ decision: 'context', context: reason ?? 'A hook objected to the result.' });
  }
  if (context) return withNotice({ decision: 'context', context });
  return withNotice({ decision: 'none' });
}

/** Claude Code's older PreToolUse words. */
function legacyDecision(value: unknown): unknown {
  if (value === 'approve') return 'allow';
  if (value === 'block') return 'deny';
  return value;
}

/** A deny, a block, or (after a call) what the model reads. */
function refusal(event: HookEventName, reason: string, notice?: string): HookAnswer {
  const extra = notice ? { notice } : {};
  if (event === 'PreToolUse') return { decision: 'deny', reason, ...extra };
  if (BLOCKS.has(event)) return { decision: 'block', reason, ...extra };
  if (event === 'PostToolUse') return { decision: 'context', context: reason, ...extra };
  return { decision: 'failed', notice: notice ?? `The hook refused: ${firstLines(reason)}` };
}

function firstLines(text: string): string {
  const lines = text.split('\n').slice(0, 3).join('\n');
  return lines.length > 300 ? `${lines.slice(0, 299)}…` : lines;
}
