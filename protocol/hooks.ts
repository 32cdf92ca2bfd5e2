import type { HookRanEvent } from './events.ts';

// Hooks: a person's or a repository's commands run at moments of a session, configured under
// `hooks` in the settings files in the shape Claude Code reads. The names of the moments are
// Claude Code's, so a repository's existing `.claude/settings.json` works unchanged.

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'Stop',
  'SubagentStop',
  'Notification',
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/**
 * What a hook's run came to: `allow` / `deny` / `ask` a call (PreToolUse), `rewrite` its arguments,
 * `context` for the model, `block` (a prompt, stopping), `none` (it ran and said nothing that acts),
 * `failed` (it could not run, timed out, or answered what cannot be read: no decision).
 */
export const HOOK_DECISIONS = ['allow', 'deny', 'ask', 'rewrite', 'context', 'block', 'none', 'failed'] as const;
export type HookDecision = (typeof HOOK_DECISIONS)[number];

export function isHookEventName(value: string): value is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

/** A hook's command shortened for a card's line: its first line, at most 60 characters. */
export function hookCommandLabel(command: string): string {
  const first = command.trim().split('\n')[0] ?? '';
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
}

/** What the hook line of a card or a transcript notice says of one run. */
export function hookRunLine(run: HookRanEvent): string {
  const named = `\`${hookCommandLabel(run.command)}\``;
  switch (run.decision) {
    case 'deny':
      return `denied by hook: ${run.reason ?? named}`;
    case 'block':
      return `${run.hook_event} hook ${named} blocked it: ${run.reason ?? 'no reason given'}`;
    case 'rewrite':
      return `arguments rewritten by ${named}`;
    case 'ask':
      return `${named} asked you first`;
    case 'allow':
      return `allowed by ${named}`;
    case 'failed':
      return `hook ${named} failed: ${run.notice ?? 'no decision'}`;
    case 'context':
      return run.changed?.length ? `formatted by ${named}` : `${named} added context for the model`;
    case 'none':
      return run.changed?.length ? `formatted by ${named}` : `${run.hook_event} hook ${named} ran`;
  }
}

/** A hook's configured entry as the Settings screen lists it. */
export interface HookEntry {
  /** Stable for the entry as it is now: what the approval names. */
  id: string;
  event: HookEventName;
  matcher: string;
  command: string;
  timeout_s: number;
  /** The file and line it is configured at (relative in the workspace). */
  source: string;
  origin: 'user' | 'workspace';
  /** Runs: the person's own, or a workspace hook approved as it is now. */
  approved: boolean;
}

export interface HooksScreen {
  hooks: HookEntry[];
  /** Files and entries left out, each naming its file and line. */
  problems: string[];
}
