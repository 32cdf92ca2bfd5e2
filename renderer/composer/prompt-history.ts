// The prompts sent from this workspace, newest last, for ↑/↓ in the message box: kept in the
// page's storage under the workspace's path, at most HISTORY_LIMIT of them, a repeat moved to the
// end rather than kept twice. A prompt the person deletes from it (Shift+Delete while it is shown)
// is gone from the store at once.

export const HISTORY_LIMIT = 200;

/** Where the history lives: the page's localStorage, or a stand-in (tests, a page without storage). */
export interface HistoryStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function keyOf(workspace: string): string {
  return `aether.prompt-history:${workspace}`;
}

function defaultStore(): HistoryStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readHistory(workspace: string, store: HistoryStore | null = defaultStore()): string[] {
  if (!store || workspace === '') return [];
  try {
    const parsed: unknown = JSON.parse(store.getItem(keyOf(workspace)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

function write(workspace: string, prompts: string[], store: HistoryStore | null): void {
  if (!store || workspace === '') return;
  try {
    store.setItem(keyOf(workspace), JSON.stringify(prompts.slice(-HISTORY_LIMIT)));
  } catch {
    // A full or refused storage loses only the history, never the message.
  }
}

export function rememberPrompt(workspace: string, prompt: string, store: HistoryStore | null = defaultStore()): void {
  if (prompt.trim() === '') return;
  const prompts = readHistory(workspace, store).filter((entry) => entry !== prompt);
  prompts.push(prompt);
  write(workspace, prompts, store);
}

export function forgetPrompt(workspace: string, prompt: string, store: HistoryStore | null = defaultStore()): void {
  write(
    workspace,
    readHistory(workspace, store).filter((entry) => entry !== prompt),
    store,
  );
}

/**
 * A walk through the history from the newest: `older` and `newer` give the prompt to show (`newer`
 * past the newest gives back what was in the box before the walk began), null when there is none.
 */
export class HistoryWalk {
  private index: number;
  private readonly prompts: string[];
  private readonly draft: string;

  constructor(prompts: readonly string[], draft: string) {
    this.prompts = [...prompts];
    this.index = this.prompts.length;
    this.draft = draft;
  }

  older(): string | null {
    if (this.index === 0) return null;
    this.index -= 1;
    return this.prompts[this.index] ?? null;
  }

  newer(): string | null {
    if (this.index >= this.prompts.length) return null;
    this.index += 1;
    return this.index === this.prompts.length ? this.draft : (this.prompts[this.index] ?? null);
  }

  /** Removes the prompt shown from the walk; the next older one (or the draft) shows instead. */
  forgetShown(): string | null {
    if (this.index >= this.prompts.length) return null;
    this.prompts.splice(this.index, 1);
    if (this.index > 0) this.index -= 1;
    return this.prompts[this.index] ?? this.draft;
  }

  get shown(): string | null {
    return this.index < this.prompts.length ? (this.prompts[this.index] ?? null) : null;
  }
}
