import { describe, expect, it } from 'vitest';
import { argsPreview, basename } from './decode.ts';
import { echoText, errorText } from './echo.ts';

describe('basename', () => {
  it('is the last path segment, ignoring trailing separators and understanding backslashes', () => {
    expect(basename('src/deep/file.ts')).toBe('file.ts');
    expect(basename('src/lib/')).toBe('lib');
    expect(basename('C:\\work\\main.swift')).toBe('main.swift');
    expect(basename('/')).toBe('');
    expect(basename(42)).toBe('');
  });
});

describe('error text', () => {
  it('is the text of a text echo', () => {
    expect(errorText({ echo: { kind: 'text', text: 'Invalid arguments for exec' } })).toBe(
      'Invalid arguments for exec',
    );
  });

  it('still says something when the echo is empty, missing or of another shape', () => {
    expect(errorText({ echo: { kind: 'text', text: '' } })).toBe('The call failed without a message.');
    expect(errorText({})).toBe('The call failed without a message.');
    expect(errorText({ echo: { kind: 'text', text: 42 } })).toBe('The call failed without a message.');
  });

  it('is empty for an echo that is not text', () => {
    expect(echoText({ echo: { kind: 'exec', output: 'x' } })).toBe('');
  });
});

describe('formatting', () => {
  it('previews arguments on one short line', () => {
    expect(argsPreview({ command: 'ls\n-la' })).toBe('{"command":"ls\\n-la"}');
    expect(argsPreview({ text: 'x'.repeat(200) }, 20)).toHaveLength(20);
  });
});
