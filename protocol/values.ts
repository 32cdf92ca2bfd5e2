import { z } from 'zod';

// The closed value lists main and the renderer share, each once: the list (for menus, messages and
// `--flag a|b|c`), its zod enum (for every edge that reads one), and the type inferred from it.

/** How hard the model thinks before it answers; `off` sends no reasoning budget. */
export const REASONING_EFFORTS = ['off', 'low', 'medium', 'high'] as const;
export const reasoningEffortSchema = z.enum(REASONING_EFFORTS);
export type ReasoningEffort = z.infer<typeof reasoningEffortSchema>;

/**
 * `bypass` is `auto` that also writes protected paths (.git/, .aethercodex/, editor task files) without asking;
 * `sandbox` runs commands without asking inside the sandbox (main/tools/sandbox/), and asks for the rest as `ask` does.
 */
export const PERMISSION_MODES = ['ask', 'review', 'auto', 'read-only', 'bypass', 'sandbox', 'plan'] as const;
export const permissionModeSchema = z.enum(PERMISSION_MODES);
/** The modes the composer's mode button steps through; the others are chosen in Settings. */
export const CYCLED_PERMISSION_MODES = ['ask', 'plan', 'auto'] as const;
export type PermissionMode = z.infer<typeof permissionModeSchema>;

/** What a tool does, as the permission gate and its rules see it (`net`: it reaches a web host). */
export const TOOL_KINDS = ['read', 'write', 'exec', 'ssh', 'code', 'net'] as const;
export const toolKindSchema = z.enum(TOOL_KINDS);
export type ToolKind = z.infer<typeof toolKindSchema>;

/** A person's answer to an approval: this call, every such call this session, or no. */
export const APPROVAL_ANSWERS = ['once', 'session', 'deny'] as const;
export const approvalAnswerSchema = z.enum(APPROVAL_ANSWERS);
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;

export const THEMES = ['system', 'light', 'dark'] as const;
export const themeSchema = z.enum(THEMES);
export type Theme = z.infer<typeof themeSchema>;

/** The providers whose keys the app keeps: declared with the providers, in providers.ts. */
export { PROVIDER_IDS, providerIdSchema, type ProviderId } from './providers.ts';

/** Which key sends a message: Enter (Shift+Enter for a new line), or Ctrl/Cmd+Enter (Enter for a new line). */
export const SEND_KEYS = ['enter', 'ctrl-enter'] as const;
export const sendKeySchema = z.enum(SEND_KEYS);
export type SendKey = z.infer<typeof sendKeySchema>;
