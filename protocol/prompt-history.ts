// The prompts sent from a workspace, newest last, for ↑/↓ in the message box. The host keeps them
// on disk (main/host/prompt-history.ts); the panel keeps a copy to walk, changed the same way at
// once. Bounded: at most HISTORY_LIMIT prompts and HISTORY_CHARS characters in all (the oldest go
// first); a repeat moves to the end rather than being kept twice; a prompt longer than
// HISTORY_PROMPT_CHARS is sent but not remembered.

export const HISTORY_LIMIT = 200;
export const HISTORY_CHARS = 1_000_000;
export const HISTORY_PROMPT_CHARS = 100_000;

/** The history with `prompt` as its newest entry, within the bounds. */
export function withPrompt(prompts: readonly string[], prompt: string): string[] {
  if (prompt.trim() === '' || prompt.length > HISTORY_PROMPT_CHARS) return [...prompts];
  const next = [...prompts.filter((entry) => entry !== prompt), prompt].slice(-HISTORY_LIMIT);
  let chars = next.reduce((sum, entry) => sum + entry.length, 0);
  while (chars > HISTORY_CHARS && next.length > 1) chars -= next.shift()!.length;
  return next;
}

/**
 * The history with prompts kept elsewhere before it (`older`, oldest first: what an older version
 * kept in the page's storage). What the history holds stays the newest; a prompt in both keeps its
 * place in the history; slash commands are left out, as they are when sent.
 */
export function withOlder(prompts: readonly string[], older: readonly string[]): string[] {
  const kept = older.filter((prompt) => !prompt.trimStart().startsWith('/'));
  return [...kept, ...prompts].reduce<string[]>((history, prompt) => withPrompt(history, prompt), []);
}

/** The history without `prompt` (Shift+Delete on it). */
export function withoutPrompt(prompts: readonly string[], prompt: string): string[] {
  return prompts.filter((entry) => entry !== prompt);
}
