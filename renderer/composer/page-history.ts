import { withOlder } from '../../protocol/prompt-history.ts';

// Versions before the host kept the prompt history kept it in the page's localStorage, under
// `aether.prompt-history:<workspace>` (a JSON array, newest last). On the first start of this one
// those prompts are handed to the host once; the entry is removed only after the host has saved
// them, so a failed hand-over is tried again at the next start and nothing typed is lost.

/** The part of localStorage used here (a stand-in in tests). */
export interface PageStorage {
  getItem(key: string): string | null;
  removeItem(key: string): void;
}

export function pageHistoryKey(workspace: string): string {
  return `aether.prompt-history:${workspace}`;
}

function pageStorage(): PageStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // A page denied its storage has none to hand over.
    return null;
  }
}

/**
 * The prompts the page's storage holds for `workspace`, oldest first and within the history's bounds;
 * null when it holds none. An entry that is not a list of prompts holds none.
 */
export function pagePrompts(workspace: string, storage: PageStorage | null = pageStorage()): string[] | null {
  if (!storage || workspace === '') return null;
  let text: string | null;
  try {
    text = storage.getItem(pageHistoryKey(workspace));
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return withOlder(
      [],
      value.filter((entry): entry is string => typeof entry === 'string'),
    );
  } catch {
    return [];
  }
}

/** Removes the page's entry once the host has its prompts (or it held none worth keeping). */
export function dropPagePrompts(workspace: string, storage: PageStorage | null = pageStorage()): void {
  try {
    storage?.removeItem(pageHistoryKey(workspace));
  } catch {
    // Left for the next start, which hands the same prompts over again: the host keeps each once.
  }
}
