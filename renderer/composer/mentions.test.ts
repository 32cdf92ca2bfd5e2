import { describe, expect, it } from 'vitest';
import { insertMention, mentionAt, mentionsIn } from './mentions.ts';

describe('mentionAt', () => {
  it('finds the @word the caret is in, at the start or after white space', () => {
    expect(mentionAt('@src/ma', 7)).toEqual({ query: 'src/ma', start: 0, end: 7 });
    expect(mentionAt('look at @rea and', 12)).toEqual({ query: 'rea', start: 8, end: 12 });
    expect(mentionAt('look at @readme', 10)).toEqual({ query: 'r', start: 8, end: 15 });
  });

  it('is no mention inside a word (an e-mail address) or after a space', () => {
    expect(mentionAt('me@example.com', 14)).toBeNull();
    expect(mentionAt('@src ', 5)).toBeNull();
    expect(mentionAt('plain', 5)).toBeNull();
  });
});

describe('insertMention', () => {
  it('replaces the typed mention with the path and a space, caret after it', () => {
    const at = mentionAt('see @rea now', 8)!;
    expect(insertMention('see @rea now', at, 'README.md')).toEqual({ text: 'see @README.md now', caret: 15 });
  });

  it('quotes a path with spaces', () => {
    const at = mentionAt('@my', 3)!;
    expect(insertMention('@my', at, 'my notes/a b.md')).toEqual({ text: '@"my notes/a b.md" ', caret: 19 });
  });
});

describe('mentionsIn', () => {
  const picked = new Map([
    ['src/a.ts', 'file' as const],
    ['docs', 'dir' as const],
    ['gone.md', 'file' as const],
  ]);

  it('sends the picked paths still in the text, in their order, folders ending in a slash', () => {
    expect(mentionsIn('compare @docs, then @src/a.ts', picked)).toEqual(['docs/', 'src/a.ts']);
  });

  it('sends no path whose mention was deleted or only begins another word', () => {
    expect(mentionsIn('compare @src/a.tsx and x@docs', picked)).toEqual([]);
  });
});
