// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeForDisplay, escapeInline } from './escape.ts';

describe('escapeForDisplay', () => {
  it('shows C0 controls, DEL and C1 controls as character references', () => {
    expect(escapeForDisplay('a\u001b[31mred\u0000\u007f\u0085\u009b')).toBe('a&#x1b;[31mred&#x0;&#x7f;&#x85;&#x9b;');
  });

  it('keeps tab and newline in text', () => {
    expect(escapeForDisplay('one\ttwo\nthree')).toBe('one\ttwo\nthree');
  });

  it('shows a carriage return, which only a character reference can produce', () => {
    expect(escapeForDisplay('line\r')).toBe('line&#xd;');
  });

  it('shows bidi embeddings, overrides, isolates and marks', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(escapeForDisplay(`x${bidi}y`)).toBe(
      'x&#x202a;&#x202b;&#x202c;&#x202d;&#x202e;&#x2066;&#x2067;&#x2068;&#x2069;&#x200e;&#x200f;&#x61c;y',
    );
  });

  it('shows zero-width and other invisible characters', () => {
    expect(escapeForDisplay('a\u200bb\u2060c\ufeffd\u00ade\u{e0041}f\u2028g\u3164h')).toBe(
      'a&#x200b;b&#x2060;c&#xfeff;d&#xad;e&#xe0041;f&#x2028;g&#x3164;h',
    );
  });

  it('shows a lone surrogate', () => {
    expect(escapeForDisplay('a\ud800b')).toBe('a&#xd800;b');
  });

  it('leaves visible text, emoji joiner sequences and other scripts alone', () => {
    const text = 'Grüße, 世界, שלום, 👩‍💻, नमस्ते, می‌خواهم';
    expect(escapeForDisplay(text)).toBe(text);
  });

  it('escapes tab and newline too for one-line values', () => {
    expect(escapeInline('a\tb\nc\u001b')).toBe('a&#x9;b&#xa;c&#x1b;');
  });
});
