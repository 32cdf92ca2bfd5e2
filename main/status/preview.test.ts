import { describe, expect, it } from 'vitest';
import { boundedJson } from './bounded-json.ts';
import { truncate, uiPreview } from './preview.ts';

// uiPreview's name guard is the set of registered tools that declare a structured echo
// (main/tools/call-echo.ts structuredEchoNames; its test checks the built-in set).
const STRUCTURED = new Set(['read_file', 'write_file', 'patch_file', 'exec', 'ssh_exec', 'run_code']);

describe('uiPreview', () => {
  it('returns a read_file object result untouched with no further options', () => {
    const result = { path: 'a.ts', range: [1, 2], content: 'x'.repeat(5000) };
    expect(uiPreview(result, 4000, { name: 'read_file' })).toBe(result);
    expect(uiPreview(result, 4000, { name: 'read_file', structured: new Set(['exec']) })).toBe(result);
  });

  it('returns a read_file object result untouched, as the same object', () => {
    const result = { path: 'a.ts', range: { start: 1, end: 2 }, content: 'x'.repeat(10_000) };
    expect(uiPreview(result, 4000, { name: 'read_file', structured: STRUCTURED })).toBe(result);
  });

  it('returns a patch_file object result untouched', () => {
    const result = { ok: true, path: 'a.ts', added: 1, removed: 0, diff: 'y'.repeat(9000) };
    expect(uiPreview(result, 4000, { name: 'patch_file', structured: STRUCTURED })).toBe(result);
  });

  it.each(['exec', 'ssh_exec'])(
    'returns a %s structured echo untouched (the name guard holds every tool with a structured echo)',
    (name) => {
      const echo = {
        command: 'make',
        status: 'exited',
        exit_code: 0,
        signal: null,
        duration_ms: 12,
        output_bytes: 3,
        output_lines: 1,
        output: 'ok\n',
        output_cut: false,
      };
      expect(uiPreview(echo, 4000, { name, structured: STRUCTURED })).toBe(echo);
    },
  );

  it('still collapses an exec result that is text', () => {
    expect(
      uiPreview(`Exit code 0 · 2 ms\n${'y'.repeat(5000)}`, 4000, { name: 'exec', structured: STRUCTURED }),
    ).toHaveLength(4000);
  });

  it('normalises a symbol name to its string form', () => {
    const result = { content: 'body' };
    expect(
      uiPreview(result, 4000, { name: Symbol('read_file') as unknown as string, structured: STRUCTURED }),
    ).not.toBe(result);
    expect(uiPreview(result, 4000, { name: Symbol.for('read_file').description!, structured: STRUCTURED })).toBe(
      result,
    );
  });

  it('collapses a read_file result that is not a plain object to text', () => {
    expect(uiPreview('plain text', 4000, { name: 'read_file', structured: STRUCTURED })).toBe('plain text');
  });

  it('collapses another plain object to its content', () => {
    expect(uiPreview({ content: 'hello', other: 1 }, 4000, { name: 'list_dir', structured: STRUCTURED })).toBe('hello');
  });

  it('keeps an empty-string content as an empty string', () => {
    expect(uiPreview({ content: '', other: 1 })).toBe('');
  });

  it('falls back to JSON when content is null, undefined or false', () => {
    expect(uiPreview({ content: null, a: 1 })).toBe('{"content":null,"a":1}');
    expect(uiPreview({ a: 1 })).toBe('{"a":1}');
    expect(uiPreview({ content: false, a: 1 })).toBe('{"content":false,"a":1}');
  });

  it('turns a non-string content into text', () => {
    expect(uiPreview({ content: 0 })).toBe('0');
    expect(uiPreview({ content: { nested: true } })).toBe('{"nested":true}');
  });

  it('turns a non-object into its string form', () => {
    expect(uiPreview(42)).toBe('42');
    expect(uiPreview(null)).toBe('');
    expect(uiPreview(undefined)).toBe('');
    expect(uiPreview(true)).toBe('true');
  });

  it('cuts text to the limit including a trailing ...', () => {
    const text = 'a'.repeat(5000);
    const preview = uiPreview(text) as string;
    expect(preview).toHaveLength(4000);
    expect(preview.endsWith('...')).toBe(true);
    expect(preview.slice(0, 3997)).toBe(text.slice(0, 3997));
  });

  it('leaves text of exactly the limit as it is', () => {
    const text = 'b'.repeat(4000);
    expect(uiPreview(text)).toBe(text);
  });

  it('honours a smaller limit', () => {
    expect(uiPreview('abcdefghij', 8)).toBe('abcde...');
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(3996)}😀${'z'.repeat(100)}`;
    const preview = uiPreview(text) as string;
    expect(preview).toBe(`${'a'.repeat(3996)}...`);
    expect(preview.length).toBeLessThanOrEqual(4000);
  });

  it('cuts the JSON of a huge object without serialising all of it', () => {
    let reads = 0;
    const huge: Record<string, number> = {};
    for (let index = 0; index < 100_000; index += 1) {
      Object.defineProperty(huge, `key${index}`, { enumerable: true, get: () => ((reads += 1), index) });
    }
    const preview = uiPreview(huge) as string;
    expect(preview).toHaveLength(4000);
    expect(preview.startsWith('{"key0":0,"key1":1,')).toBe(true);
    expect(reads).toBeLessThan(1000);
  });
});

describe('truncate', () => {
  it('returns only as much of the omission as fits a tiny limit', () => {
    expect(truncate('abcdef', 2)).toBe('..');
    expect(truncate('abcdef', 0)).toBe('');
  });
});

describe('boundedJson', () => {
  const samples: unknown[] = [
    { a: [1, 'two', null, undefined, () => 1], b: { c: true, d: undefined }, e: new Date(0), f: Number.NaN },
    ['x', { y: 'z\n"q"' }],
    'plain',
    17,
    null,
  ];

  it.each(samples)('writes exactly what JSON.stringify writes within the budget (%#)', (sample) => {
    expect(boundedJson(sample, 10_000)).toBe(JSON.stringify(sample));
  });

  it('stops shortly after the budget and keeps a prefix of the full JSON', () => {
    const value = { list: Array.from({ length: 10_000 }, (_, index) => ({ index, name: `item ${index}` })) };
    const full = JSON.stringify(value);
    const cut = boundedJson(value, 500);
    expect(cut.length).toBeGreaterThan(500);
    expect(cut.length).toBeLessThan(600);
    expect(full.startsWith(cut)).toBe(true);
  });

  it('cuts a single huge string before escaping it', () => {
    const cut = boundedJson({ text: 'é'.repeat(1_000_000) }, 100);
    expect(cut.length).toBeLessThan(300);
    expect(cut.startsWith('{"text":"éé')).toBe(true);
  });

  it('writes a cycle as a marker instead of throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    expect(boundedJson(cyclic, 1000)).toBe('{"name":"loop","self":"[Circular]"}');
  });
});
