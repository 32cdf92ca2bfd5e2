import { describe, expect, it } from 'vitest';
import { asError, errorMessage } from '../protocol/errors.ts';
import { formatBytes, formatDuration } from '../protocol/format.ts';
import { isRecord } from '../protocol/json.ts';

// The pure helpers main and the renderer share from protocol/.

describe('formatBytes', () => {
  it('counts bytes below a KiB, then KiB and MiB with one decimal', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
  });
});

describe('formatDuration', () => {
  it('reads milliseconds, then seconds, then minutes and seconds', () => {
    expect(formatDuration(42)).toBe('42 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(59_600)).toBe('1m 00s');
    expect(formatDuration(125_000)).toBe('2m 05s');
  });

  it('is empty for a duration that is not known', () => {
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(Number.NaN)).toBe('');
  });
});

describe('errorMessage and asError', () => {
  it('takes the message of an Error and the text of anything else thrown', () => {
    expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(404)).toBe('404');
  });

  it('keeps an Error as it is and wraps anything else', () => {
    const error = new RangeError('out of range');
    expect(asError(error)).toBe(error);
    expect(asError('lost')).toEqual(new Error('lost'));
  });
});

describe('isRecord', () => {
  it('accepts plain objects only, not null, arrays or primitives', () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([1])).toBe(false);
    expect(isRecord('x')).toBe(false);
  });
});
