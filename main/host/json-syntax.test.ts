import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from '../../protocol/json-syntax.ts';

describe('jsonSyntaxError', () => {
  it('finds nothing wrong in valid JSON', () => {
    expect(jsonSyntaxError('{"a": [1, -2.5e3, "x\\n\\u00e9", true, false, null], "b": {}}')).toBeNull();
  });

  it('points at the brace after a trailing comma in an object', () => {
    expect(jsonSyntaxError('{\n  "a": 1,\n}')).toEqual({
      line: 3,
      column: 1,
      reason: "a comma before '}': JSON allows none after the last property",
    });
  });

  it('points at the bracket after a trailing comma in a list, where JSON.parse names no position', () => {
    const text = '{\n  "deny": ["exec(rm *)",]\n}';
    const parseError = (() => {
      try {
        JSON.parse(text);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(parseError).not.toContain('position');
    expect(jsonSyntaxError(text)).toMatchObject({ line: 2, column: 25, reason: expect.stringContaining("']'") });
  });

  it('counts columns from the start of the line, after a Windows line end too', () => {
    expect(jsonSyntaxError('{\r\n  "a": tru\r\n}')).toMatchObject({ line: 2, column: 8 });
  });

  it('names single quotes, a missing comma, a string never closed and a text that stops short', () => {
    expect(jsonSyntaxError("{'a': 1}")?.reason).toBe('a property name in single quotes: JSON takes double quotes');
    expect(jsonSyntaxError('{"a": 1 "b": 2}')).toMatchObject({
      line: 1,
      column: 9,
      reason: expect.stringContaining("','"),
    });
    expect(jsonSyntaxError('{"a": "open\n}')).toMatchObject({
      line: 1,
      column: 12,
      reason: expect.stringContaining('line break'),
    });
    expect(jsonSyntaxError('{"a": ')).toMatchObject({ line: 1, column: 7, reason: expect.stringContaining('ends') });
    expect(jsonSyntaxError('{} x')).toMatchObject({
      line: 1,
      column: 4,
      reason: expect.stringContaining('after the end'),
    });
  });
});
