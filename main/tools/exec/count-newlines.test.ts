import { describe, expect, it } from 'vitest';
import {
  countNewlines,
  countNewlinesPortable,
  newlineCounterKind,
  usePortableNewlineCounter,
} from './count-newlines.ts';

/** The plainest count there is, to hold both counters to. */
function reference(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === 0x0a) count += 1;
  return count;
}

/** Deterministic bytes: a share of newlines, the rest anything (0x8a, 0x0b and 0x09 included). */
function bytesOf(length: number, seed: number, newlineShare: number): Buffer {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index += 1)
    bytes[index] = next() < newlineShare ? 0x0a : Math.floor(next() * 256);
  return bytes;
}

describe('countNewlines', () => {
  it('runs the SIMD loop on this runtime (the portable one is the fallback)', () => {
    expect(newlineCounterKind()).toBe('simd');
  });

  it('counts every newline, whatever the length, the offset into its buffer and the density', () => {
    const lengths = [0, 1, 15, 16, 17, 63, 64, 65, 4079, 4080, 4081, 4096, 65_535, 65_536, 65_537, 70_001];
    let seed = 1;
    for (const length of lengths) {
      for (const share of [0, 0.02, 0.5, 1]) {
        const backing = bytesOf(length + 9, (seed += 1), share);
        for (const offset of [0, 1, 7]) {
          const bytes = backing.subarray(offset, offset + length);
          expect(countNewlines(bytes), `length ${length}, share ${share}, offset ${offset}`).toBe(reference(bytes));
          expect(countNewlinesPortable(bytes)).toBe(reference(bytes));
        }
      }
    }
  });

  it('counts a 64 KiB block of nothing but newlines (every byte lane at its largest)', () => {
    const bytes = Buffer.alloc(64 * 1024, 0x0a);
    expect(countNewlines(bytes)).toBe(64 * 1024);
  });

  it('never counts bytes left in its working memory by a longer input before', () => {
    expect(countNewlines(Buffer.alloc(70_000, 0x0a))).toBe(70_000);
    // 100 bytes without a newline: the vector past their end must read zeros, not the newlines above.
    expect(countNewlines(Buffer.alloc(100, 0x41))).toBe(0);
    expect(countNewlines(Buffer.concat([Buffer.alloc(99, 0x41), Buffer.from('\n')]))).toBe(1);
  });

  it('counts output of short lines as the line total of the command', () => {
    const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    const text = line.repeat(5000);
    expect(countNewlines(Buffer.from(text))).toBe(5000);
    expect(countNewlines(new Uint8Array(Buffer.from(`${text}no newline at the end`)))).toBe(5000);
  });
});

describe('usePortableNewlineCounter', () => {
  // Last in this file: it switches the counter for the rest of the process.
  it('switches to the portable loop, which counts the same', () => {
    const bytes = bytesOf(70_001, 99, 0.1);
    const simdCount = countNewlines(bytes);
    usePortableNewlineCounter();
    expect(newlineCounterKind()).toBe('portable');
    expect(countNewlines(bytes)).toBe(simdCount);
    expect(simdCount).toBe(reference(bytes));
  });
});
