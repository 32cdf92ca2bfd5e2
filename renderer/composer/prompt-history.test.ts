import { describe, expect, it } from 'vitest';
import { HistoryWalk } from './prompt-history.ts';

// The walk ↑/↓ take through the prompts (where they are kept: protocol/prompt-history.ts and
// main/host/prompt-history.ts).

describe('prompt history walk', () => {
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
