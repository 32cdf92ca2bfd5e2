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
