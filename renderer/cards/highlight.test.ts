import { describe, expect, it, vi } from 'vitest';
import { highlight } from './highlight.ts';
import { CODE_BACKGROUNDS, MIN_CONTRAST, contrast, readableColour } from './readable-colours.ts';

// Highlighted code reads the same on its first line as on any other, and every colour reads at
// 4.5:1 on the backgrounds the panel draws code on, in both themes.

const LONG_LINE = `const endpoint = "${'https://example.invalid/'.repeat(12)}"; // one line wider than any panel`;

describe('highlighting', () => {
  it('colours a line that is slow to tokenize whole, as on a busy machine compiling the patterns', async () => {
    // Each step of the tokenizer seems to take 200 ms: shiki's default half a second per line would
    // leave the rest of the first line in the colour of its third token.
    let clock = 0;
    const slow = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 200));
    const lines = await highlight(`${LONG_LINE}\n${LONG_LINE}\n`, 'typescript').finally(() => slow.mockRestore());
    const colours = (index: number) => lines?.[index]?.map((token) => [token.content, token.htmlStyle]);
    expect(colours(0)).toEqual(colours(1));
    const light = (content: string) =>
      lines?.[0]?.find((token) => token.content.trim().startsWith(content))?.htmlStyle?.['--shiki-light'];
    // Keyword, name, string and comment each in their own colour, to the end of the line.
    const shown = ['const', 'endpoint', '"https:', '//'].map(light);
    expect(new Set(shown).size).toBe(4);
    expect(shown).not.toContain(undefined);
  });

  it('draws every token at 4.5:1 or more on code, added and removed lines, light and dark', async () => {
    const code = [
      '// a comment',
      'export async function greet(name: string): Promise<string> {',
      '  const text = `Hello, ${name}!`; /* more */',
      '  return /re+gex/.test(text) ? text : String(42);',
      '}',
    ].join('\n');
    const lines = await highlight(code, 'typescript');
    const styles = (lines ?? []).flat().map((token) => token.htmlStyle ?? {});
    expect(styles.length).toBeGreaterThan(10);
    for (const style of styles) {
      for (const background of CODE_BACKGROUNDS.light)
        expect(contrast(style['--shiki-light'] ?? '#000000', background)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      for (const background of CODE_BACKGROUNDS.dark)
        expect(contrast(style['--shiki-dark'] ?? '#ffffff', background)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });

  it('keeps a colour that already reads, and moves one that does not only as far as it must', () => {
    expect(readableColour('#1F2328', 'light')).toBe('#1F2328');
    const comment = readableColour('#6E7781', 'light');
    expect(comment).not.toBe('#6E7781');
    for (const background of CODE_BACKGROUNDS.light) expect(contrast(comment, background)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(comment, '#6E7781')).toBeLessThan(1.6);
  });
});
