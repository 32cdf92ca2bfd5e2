import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpillWriter } from './spill-writer.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'spill-writer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function chunkOf(index: number, length: number): Buffer {
  return Buffer.alloc(length, String.fromCharCode(0x41 + (index % 26)));
}

describe('SpillWriter', () => {
  it('writes every chunk, in order, to a 0600 file, and nothing is pending after close', async () => {
    const file = path.join(dir, 'out.txt');
    const errors: string[] = [];
    const writer = new SpillWriter(file, (message) => errors.push(message), 1000);
    const expected: Buffer[] = [];
    for (let index = 0; index < 300; index += 1) {
      const chunk = chunkOf(index, 1 + ((index * 37) % 700));
      expected.push(chunk);
      if (!writer.write(chunk)) await writer.drained();
    }
    await writer.close();
    expect((await readFile(file)).toString('latin1')).toBe(Buffer.concat(expected).toString('latin1'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(writer.pendingBytes).toBe(0);
    expect(errors).toEqual([]);
  });

  it('gathers chunks into batches and asks the source to pause only while a full batch waits behind a write', async () => {
    const writer = new SpillWriter(path.join(dir, 'out.txt'), () => {}, 1000);
    // Under a batch: nothing is written yet, and the source goes on.
    expect(writer.write(chunkOf(0, 600))).toBe(true);
    expect(writer.needsDrain).toBe(false);
    // A full batch goes to the file; the next one may gather meanwhile.
    expect(writer.write(chunkOf(1, 600))).toBe(true);
    expect(writer.pendingBytes).toBe(1200);
    // A second full batch while the first is being written: pause.
    expect(writer.write(chunkOf(2, 1000))).toBe(false);
    expect(writer.needsDrain).toBe(true);
    let resumed = false;
    const drained = writer.drained().then(() => (resumed = true));
    expect(resumed).toBe(false);
    await drained;
    // The first batch was written and the waiting one went at once: the source may read on.
    expect(writer.needsDrain).toBe(false);
    expect(writer.pendingBytes).toBeLessThanOrEqual(1000);
    await writer.close();
    expect((await stat(path.join(dir, 'out.txt'))).size).toBe(2200);
  });

  it('keeps what it holds bounded by two batches and a chunk when the source honours the pauses', async () => {
    const writer = new SpillWriter(path.join(dir, 'out.txt'), () => {}, 4096);
    let peak = 0;
    for (let index = 0; index < 2000; index += 1) {
      const keepGoing = writer.write(chunkOf(index, 1500));
      peak = Math.max(peak, writer.pendingBytes);
      if (!keepGoing) await writer.drained();
    }
    await writer.close();
    expect(peak).toBeLessThanOrEqual(2 * 4096 + 1500);
    expect((await stat(path.join(dir, 'out.txt'))).size).toBe(2000 * 1500);
  });

  // Linux's /dev/full fails every write with ENOSPC: a full disk, for real.
  it('reports a failed write once, lets a paused source go on, drops the rest and fails close', async () => {
    const errors: string[] = [];
    const writer = new SpillWriter('/dev/full', (message) => errors.push(message), 1000);
    writer.write(chunkOf(0, 1000));
    writer.write(chunkOf(1, 1000));
    expect(writer.write(chunkOf(2, 10))).toBe(false);
    await writer.drained();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/ENOSPC|no space/i);
    expect(writer.write(chunkOf(3, 5000))).toBe(true);
    expect(writer.pendingBytes).toBe(0);
    await expect(writer.close()).rejects.toThrow(/ENOSPC|no space/i);
    expect(errors).toHaveLength(1);
  });

  it('throws at once when the file cannot be opened', () => {
    expect(() => new SpillWriter(dir, () => {})).toThrow(/EISDIR|directory/i);
  });
});
