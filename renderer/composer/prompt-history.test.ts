import { describe, expect, it } from 'vitest';
import {
  forgetPrompt,
  HISTORY_LIMIT,
  HistoryWalk,
  readHistory,
  rememberPrompt,
  type HistoryStore,
} from './prompt-history.ts';

function memoryStore(): HistoryStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value) };
}

describe('prompt history', () => {
  it('keeps each workspace its own prompts, newest last, a repeat moved to the end, bounded', () => {
    const store = memoryStore();
    rememberPrompt('/a', 'one', store);
    rememberPrompt('/a', 'two', store);
    rememberPrompt('/a', 'one', store);
    rememberPrompt('/b', 'elsewhere', store);
    expect(readHistory('/a', store)).toEqual(['two', 'one']);
    expect(readHistory('/b', store)).toEqual(['elsewhere']);
    for (let index = 0; index < HISTORY_LIMIT + 5; index += 1) rememberPrompt('/a', `p${index}`, store);
    expect(readHistory('/a', store)).toHaveLength(HISTORY_LIMIT);
    expect(readHistory('/a', store).at(-1)).toBe(`p${HISTORY_LIMIT + 4}`);
  });

  it('forgets a deleted prompt, and reads a damaged store as empty', () => {
    const store = memoryStore();
    rememberPrompt('/a', 'secret', store);
    rememberPrompt('/a', 'kept', store);
    forgetPrompt('/a', 'secret', store);
    expect(readHistory('/a', store)).toEqual(['kept']);
    store.setItem('aether.prompt-history:/c', '{not json');
    expect(readHistory('/c', store)).toEqual([]);
  });

  it('walks older from the newest and back to the draft', () => {
    const walk = new HistoryWalk(['first', 'second'], 'draft');
    expect(walk.newer()).toBeNull();
    expect(walk.older()).toBe('second');
    expect(walk.older()).toBe('first');
    expect(walk.older()).toBeNull();
    expect(walk.newer()).toBe('second');
    expect(walk.forgetShown()).toBe('first');
    expect(walk.newer()).toBe('draft');
  });
});
