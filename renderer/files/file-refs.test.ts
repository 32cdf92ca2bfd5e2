import { describe, expect, it } from 'vitest';
import { findFileRefs, MAX_REFS, wholeFileRef } from './file-refs.ts';

// Which stretches of a text may name a workspace file; only those the panel finds become links.

const paths = (text: string) => findFileRefs(text).map((ref) => [ref.path, ref.line]);

describe('findFileRefs', () => {
  it('finds relative paths, with and without a line', () => {
    expect(paths('Edit src/app.ts, then README.md:12 and ./main/x.ts:40:7.')).toEqual([
      ['src/app.ts', undefined],
      ['README.md', 12],
      ['./main/x.ts', 40],
    ]);
  });

  it('gives where each reference starts and ends, its line included', () => {
    const text = 'see main/a.ts:3 now';
    const [ref] = findFileRefs(text);
    expect(text.slice(ref!.start, ref!.end)).toBe('main/a.ts:3');
  });

  it('leaves the full stop that ends a sentence out of the name', () => {
    expect(paths('The fix is in renderer/cards/CodeLines.tsx.')).toEqual([['renderer/cards/CodeLines.tsx', undefined]]);
  });

  it('finds search results at the start of their lines', () => {
    expect(paths('src/a.ts:3: const a = 1;\nsrc/b/c.py:10: import os')).toEqual([
      ['src/a.ts', 3],
      ['src/b/c.py', 10],
    ]);
  });

  it('skips URLs, e-mail addresses, version numbers and plain words', () => {
    expect(paths('https://example.com/a.ts and mail me@host.com about v1.2.3 or 3.14, fine.')).toEqual([]);
  });

  it('knows extensionless files by name and by folder', () => {
    expect(paths('Makefile and src/bin/run')).toEqual([
      ['Makefile', undefined],
      ['src/bin/run', undefined],
    ]);
  });

  it('stops after MAX_REFS references', () => {
    const text = Array.from({ length: MAX_REFS + 20 }, (_unused, index) => `f${index}.ts`).join(' ');
    expect(findFileRefs(text)).toHaveLength(MAX_REFS);
  });
});

describe('wholeFileRef', () => {
  it('takes inline code that is one path', () => {
    expect(wholeFileRef('src/app.ts:12')).toMatchObject({ path: 'src/app.ts', line: 12 });
  });

  it('refuses code that only holds a path among other things', () => {
    expect(wholeFileRef('cat src/app.ts')).toBeNull();
    expect(wholeFileRef('x = 1')).toBeNull();
  });
});
