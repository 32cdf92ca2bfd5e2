import { createCipheriv } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countInPieces, estimateTextTokens, EXACT_LIMIT, MAX_RUN, MOST_COUNTED } from './text-token-estimate.ts';

// The tokenizer is handed bounded pieces (its merge is quadratic in a piece's length) and, of a long
// text, bounded windows; on prose and code the pieces add up to the count of the whole.

const PLAIN = { disallowedSpecial: new Set<string>() };
const o200k = (text: string): number => countTokens(text, PLAIN);

/** A counter that records what the tokenizer was handed. */
function recording(count: (text: string) => number = o200k) {
  const pieces: number[] = [];
  return {
    pieces,
    count: (text: string) => {
      pieces.push(text.length);
      return count(text);
    },
    handed: () => pieces.reduce((sum, length) => sum + length, 0),
  };
}

/** Base64 of `bytes` pseudo-random bytes, the same on every run. */
function base64(bytes: number): string {
  return createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(16))
    .update(Buffer.alloc(bytes))
    .toString('base64');
}

/** The text of every .ts and .md file under the project's `folders`. */
function filesUnder(...folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(new URL(`../../${folder}/`, import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|md)$/.test(name))
      .sort()
      .map((name) => readFileSync(new URL(`../../${folder}/${name}`, import.meta.url), 'utf8')),
  );
}

function source(...paths: string[]): string {
  return paths.map((path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')).join('\n');
}

describe('estimateTextTokens', () => {
  it('hands the tokenizer no piece longer than MAX_RUN from a run without spaces', () => {
    const run = `${'A'.repeat(20_000)} tail`;
    const counter = recording();
    countInPieces(run, counter.count);
    expect(Math.max(...counter.pieces)).toBeLessThanOrEqual(MAX_RUN);
    expect(counter.handed()).toBe(run.length);
  });

  it('hands the tokenizer a bounded part of a 40 MB text, and counts the rest by bytes', () => {
    const huge = 'QUJD'.repeat(10_000_000);
    const counter = recording((text) => text.length);
    // One token a character: the windows' ratio is one token a byte, so the estimate is the byte count.
    expect(estimateTextTokens(huge, counter.count)).toBe(40_000_000);
    expect(counter.handed()).toBeLessThanOrEqual(MOST_COUNTED);
    expect(Math.max(...counter.pieces)).toBeLessThanOrEqual(MAX_RUN);
  });

  it('counts a long text by the tokens per UTF-8 byte of its windows', () => {
    // Two bytes a character: the windows' ratio is half a token a byte.
    const accented = 'é'.repeat(100_000);
    expect(estimateTextTokens(accented, (text) => text.length)).toBe(100_000);
  });

  it('counts prose and code in pieces exactly as the tokenizer counts the whole, and whole up to the limit', () => {
    const text = source('ARCHITECTURE.md', 'main/model/token-estimate.ts').slice(0, 32 * 1024);
    const counter = recording();
    expect(countInPieces(text, counter.count)).toBe(o200k(text));
    expect(counter.pieces.length).toBeGreaterThan(1);
    const short = text.slice(0, EXACT_LIMIT);
    expect(estimateTextTokens(short, o200k)).toBe(o200k(short));
  });

  it('estimates long prose and code within 3% of the tokenizer', () => {
    const text = source(
      'ARCHITECTURE.md',
      'README.md',
      'main/agent/turn.ts',
      'main/agent/agent-session.ts',
      'main/agent/compaction.ts',
      'main/model/sdk-adapter.ts',
      'main/tools/registry.ts',
    );
    expect(text.length).toBeGreaterThan(2 * EXACT_LIMIT);
    const counter = recording();
    const estimate = estimateTextTokens(text, counter.count);
    expect(counter.handed()).toBeLessThanOrEqual(MOST_COUNTED);
    expect(Math.abs(estimate / o200k(text) - 1)).toBeLessThan(0.03);
  });

  it('counts files of a few KB from about an eighth of each, together within 2% of the tokenizer', () => {
    // What a long session's reads return: this project's own sources and docs of 1.5 to 12 KB.
    const texts = filesUnder('main', 'docs', 'protocol').filter((text) => text.length > 1500 && text.length < 12_000);
    expect(texts.length).toBeGreaterThan(100);
    const counter = recording();
    const estimated = texts.reduce((sum, text) => sum + estimateTextTokens(text, counter.count), 0);
    const exact = texts.reduce((sum, text) => sum + o200k(text), 0);
    const total = texts.reduce((sum, text) => sum + text.length, 0);
    expect(counter.handed()).toBeLessThan(total / 4);
    expect(Math.abs(estimated / exact - 1)).toBeLessThan(0.02);
    // Each one on its own within a sixth.
    for (const text of texts) expect(Math.abs(estimateTextTokens(text, o200k) / o200k(text) - 1)).toBeLessThan(1 / 6);
  });

  it('estimates base64 within 1% of counting all of it in pieces', () => {
    const text = base64(150_000);
    expect(Math.abs(estimateTextTokens(text, o200k) / countInPieces(text, o200k) - 1)).toBeLessThan(0.01);
  });

  it('counts base64 in pieces within 0.5% of the tokenizer on the whole', () => {
    const text = base64(30_000);
    expect(Math.abs(countInPieces(text, o200k) / o200k(text) - 1)).toBeLessThan(0.005);
  });

  it('does not split a surrogate pair where it cuts a run', () => {
    const faces = '😀'.repeat(1_000);
    const halves: string[] = [];
    countInPieces(faces, (text) => {
      halves.push(text);
      return 1;
    });
    expect(halves.every((piece) => !/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/.test(piece))).toBe(true);
    expect(halves.join('')).toBe(faces);
  });
});
