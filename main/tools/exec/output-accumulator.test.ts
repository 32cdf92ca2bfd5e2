import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeTail, OutputAccumulator, utf8Suffix } from './output-accumulator.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'accumulator-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SMALL = { memoryBytes: 100, memoryLines: 10, tailBytes: 40, liveBytes: 32 };

describe('OutputAccumulator', () => {
  it('never shows half of a character split across two chunks in the live view', () => {
    const accumulator = new OutputAccumulator(path.join(dir, 'out.txt'), SMALL);
    const bytes = Buffer.from('né€😀');
    // Split inside é (2 bytes), inside € (3 bytes) and inside 😀 (4 bytes).
    accumulator.append(bytes.subarray(0, 2));
    expect(accumulator.progress().text).toBe('n');
    accumulator.append(bytes.subarray(2, 5));
    expect(accumulator.progress().text).toBe('né');
    accumulator.append(bytes.subarray(5, 8));
    expect(accumulator.progress().text).toBe('né€');
    accumulator.append(bytes.subarray(8));
    expect(accumulator.progress().text).toBe('né€😀');
    expect(accumulator.progress().text).not.toContain('\ufffd');
  });

  it('decodes the final result once, whole, even when every byte arrived alone', async () => {
    const accumulator = new OutputAccumulator(path.join(dir, 'out.txt'), SMALL);
    const bytes = Buffer.from('héllo wörld 😀\n');
    for (const byte of bytes) accumulator.append(Buffer.from([byte]));
    const final = await accumulator.finish();
    expect(final).toEqual({ text: 'héllo wörld 😀\n', totalBytes: bytes.length, totalLines: 1, cut: false });
  });

  it('bounds the live view to its window and counts the bytes cut before it', () => {
    const accumulator = new OutputAccumulator(path.join(dir, 'out.txt'), SMALL);
    for (let index = 0; index < 20; index += 1) accumulator.append(Buffer.from(`${String(index).padStart(2, '0')}\n`));
    const progress = accumulator.progress();
    expect(Buffer.byteLength(progress.text)).toBeLessThanOrEqual(SMALL.liveBytes);
    expect(progress.total_bytes).toBe(60);
    expect(progress.cut_bytes + Buffer.byteLength(progress.text)).toBe(60);
    expect(progress.text.endsWith('19\n')).toBe(true);
  });

  it('shows no half character where the live window starts, and counts its bytes as cut', () => {
    const accumulator = new OutputAccumulator(path.join(dir, 'out.txt'), SMALL);
    // 3-byte characters: a 32-byte window starts inside one of them.
    const text = '€'.repeat(20);
    accumulator.append(Buffer.from(text));
    const progress = accumulator.progress();
    expect(progress.text).toBe('€'.repeat(10));
    expect(progress.text).not.toContain('\ufffd');
    expect(progress.cut_bytes + Buffer.byteLength(progress.text)).toBe(60);
  });

  it('keeps output within the limit in memory and writes no file', async () => {
    const file = path.join(dir, 'out.txt');
    const accumulator = new OutputAccumulator(file, SMALL);
    accumulator.append(Buffer.from('short\n'));
    const final = await accumulator.finish();
    expect(final.path).toBeUndefined();
    await expect(stat(file)).rejects.toThrow();
  });

  it('spills output past the byte limit to a 0600 file holding all of it, and keeps only a tail', async () => {
    const file = path.join(dir, 'spill', 'out.txt');
    const accumulator = new OutputAccumulator(file, SMALL);
    const lines = Array.from({ length: 9 }, (_, index) => `line ${index} ${'x'.repeat(20)}\n`);
    for (const line of lines) accumulator.append(Buffer.from(line));
    const final = await accumulator.finish();
    expect(final.cut).toBe(true);
    expect(final.path).toBe(file);
    expect(await readFile(file, 'utf8')).toBe(lines.join(''));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.byteLength(final.text)).toBeLessThanOrEqual(SMALL.tailBytes);
    expect(lines.join('').endsWith(final.text)).toBe(true);
    expect(final.totalLines).toBe(9);
    expect(accumulator.counters.peakHeldBytes).toBeLessThanOrEqual(SMALL.memoryBytes + 30);
  });

  it('spills output past the line limit even when it is small in bytes', async () => {
    const file = path.join(dir, 'out.txt');
    const accumulator = new OutputAccumulator(file, SMALL);
    for (let index = 0; index < 12; index += 1) accumulator.append(Buffer.from('a\n'));
    const final = await accumulator.finish();
    expect(final.path).toBe(file);
    expect(final.totalLines).toBe(12);
    expect(await readFile(file, 'utf8')).toBe('a\n'.repeat(12));
  });

  it('reports why the complete output could not be kept when the file cannot be written', async () => {
    const blocker = path.join(dir, 'a-file');
    await import('node:fs/promises').then((fs) => fs.writeFile(blocker, ''));
    const accumulator = new OutputAccumulator(path.join(blocker, 'out.txt'), SMALL);
    for (let index = 0; index < 20; index += 1) accumulator.append(Buffer.from(`${'y'.repeat(9)}\n`));
    const final = await accumulator.finish();
    expect(final.path).toBeUndefined();
    expect(final.spillError).toMatch(/EEXIST|ENOTDIR/);
    expect(final.text.endsWith('yyyyyyyyy\n')).toBe(true);
  });

  it('keeps going on the tail in memory when the spill file fails after it was opened', async () => {
    // The spill path is a folder: opening it for writing fails asynchronously (EISDIR).
    const folder = path.join(dir, 'is-a-folder');
    await mkdir(folder);
    const accumulator = new OutputAccumulator(folder, SMALL);
    for (let index = 0; index < 20; index += 1) {
      accumulator.append(Buffer.from(`${String(index).padStart(9, '0')}\n`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const final = await accumulator.finish();
    expect(final.path).toBeUndefined();
    expect(final.spillError).toMatch(/EISDIR/);
    expect(final.text.endsWith('000000019\n')).toBe(true);
    expect(final.totalBytes).toBe(200);
  });

  it('counts a last line without a newline', async () => {
    const accumulator = new OutputAccumulator(path.join(dir, 'out.txt'), SMALL);
    accumulator.append(Buffer.from('a\nb'));
    expect((await accumulator.finish()).totalLines).toBe(2);
  });
});

describe('UTF-8 tails', () => {
  it('drops a character cut at the start of a byte tail instead of showing U+FFFD', () => {
    const bytes = Buffer.from('€uro');
    expect(decodeTail(bytes.subarray(1))).toBe('uro');
  });

  it('keeps the longest suffix of whole characters within a byte budget', () => {
    expect(utf8Suffix('ab€😀', 4)).toBe('😀');
    expect(utf8Suffix('ab€😀', 7)).toBe('€😀');
    expect(utf8Suffix('ab€😀', 6)).toBe('😀');
    expect(utf8Suffix('abc', 10)).toBe('abc');
  });
});
