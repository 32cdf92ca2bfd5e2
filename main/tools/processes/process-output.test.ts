import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { ProcessOutput } from './process-output.ts';

// A process's output: the newest bytes in memory, a bounded amount on disk, offsets that count
// every byte, the oldest dropped (and said to be) and never the newest.

const temp = useTempWorkspace('aether-process-output-');

const line = (n: number): string => `line ${String(n).padStart(5, '0')}\n`; // 11 bytes

function filled(lines: number, limits = { memoryBytes: 1100, diskBytes: 4400 }): ProcessOutput {
  const output = new ProcessOutput(path.join(temp.sessionDir, 'processes', 'p1'), limits);
  for (let n = 0; n < lines; n += 1) output.append(Buffer.from(line(n)));
  return output;
}

describe('ProcessOutput', () => {
  it('keeps everything while it fits, and reads on from an offset', () => {
    const output = filled(50);
    expect(output.bytes).toBe(550);
    expect(output.lines).toBe(50);
    const all = output.read(0, 10_000);
    expect(all).toMatchObject({ from: 0, to: 550, dropped: 0 });
    expect(all.text.startsWith(line(0))).toBe(true);
    expect(output.read(all.to, 10_000)).toMatchObject({ text: '', from: 550, to: 550 });
    expect(output.read(539, 10_000).text).toBe(line(49));
  });

  it('reads older output back from disk once memory holds only the newest', () => {
    const output = filled(300); // 3300 bytes: 1100 in memory, all of it on disk
    const all = output.read(0, 10_000);
    expect(all.dropped).toBe(0);
    expect(all.text).toBe(Array.from({ length: 300 }, (_, n) => line(n)).join(''));
  });

  it('drops the oldest output past the disk limit, keeps the newest, and says how much is gone', () => {
    const output = filled(2000); // 22 000 bytes through a 4400-byte disk
    output.flush();
    const onDisk = output.files.reduce((sum, file) => sum + statSync(file).size, 0);
    expect(onDisk).toBeLessThanOrEqual(4400);
    expect(output.files.length).toBeLessThanOrEqual(2);
    const read = output.read(0, 100_000);
    expect(read.dropped).toBe(read.from);
    expect(read.dropped).toBeGreaterThanOrEqual(22_000 - 4400);
    expect(read.text.endsWith(line(1999))).toBe(true);
    expect(read.to).toBe(22_000);
  });

  it('gives the newest bytes when more is asked for than one read returns', () => {
    const output = filled(300);
    const read = output.read(0, 110);
    expect(read).toMatchObject({ from: 3190, to: 3300, dropped: 3190 });
    expect(read.text).toBe(line(290) + Array.from({ length: 9 }, (_, n) => line(291 + n)).join(''));
  });

  it('leaves a character still arriving for the next read, and never splits one', () => {
    const output = filled(0);
    const euro = Buffer.from('€'); // 3 bytes
    output.append(Buffer.concat([Buffer.from('price '), euro.subarray(0, 2)]));
    const first = output.read(0, 1000);
    expect(first).toMatchObject({ text: 'price ', to: 6 });
    output.append(euro.subarray(2));
    expect(output.read(first.to, 1000).text).toBe('€');
  });

  it('gives the last lines for a tail', () => {
    const output = filled(300);
    expect(output.tail(2, 1000).text).toBe(line(298) + line(299));
  });

  it('keeps memory within its limit whatever arrives', () => {
    const output = new ProcessOutput(path.join(temp.sessionDir, 'processes', 'p2'), {
      memoryBytes: 64 * 1024,
      diskBytes: 1024 * 1024,
    });
    const chunk = Buffer.alloc(16 * 1024, 'x');
    for (let n = 0; n < 1000; n += 1) output.append(chunk);
    // Held in memory: the ring, plus at most one chunk beyond it and one batch waiting for the disk.
    expect(output.read(0, 10 * 1024 * 1024).text.length).toBeLessThanOrEqual(1024 * 1024);
    expect(output.heldBytes).toBeLessThanOrEqual(64 * 1024 + 16 * 1024 + 64 * 1024);
  });
});
