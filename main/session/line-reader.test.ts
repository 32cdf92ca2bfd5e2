import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanLines, type FileLine } from './line-reader.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-lines-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Lines of many sizes, some longer than a read chunk (1 MiB), some not ASCII unless `ascii`. */
function lines(ascii = false): string[] {
  const out: string[] = [];
  for (let index = 0; index < 400; index += 1) {
    const size = index % 97 === 0 ? 1_500_000 + index : (index * 7919) % 9_000;
    out.push(`${index}:${(index % 3 === 0 && !ascii ? 'é€' : 'ab').repeat(size / 2)}`);
  }
  return out;
}

describe('scanLines', () => {
  it.each([
    ['ASCII', true],
    ['not only ASCII', false],
  ])('gives every line with its byte range, across chunks, and the torn rest (%s)', async (_, ascii) => {
    const file = path.join(root, 'lines');
    const all = lines(ascii);
    const bytes = Buffer.from(`${all.join('\n')}\n{"torn`);
    await writeFile(file, bytes);
    const seen: FileLine[] = [];
    const { torn } = await scanLines(file, (line) => {
      seen.push(line);
    });
    expect(seen.map((line) => line.text)).toEqual(all);
    for (const line of seen) {
      expect(bytes.toString('utf8', line.offset, line.offset + line.length)).toBe(line.text);
    }
    expect(torn?.bytes.toString()).toBe('{"torn');
    expect(torn?.offset).toBe(bytes.length - 6);
  });

  it('reads a range of lines only', async () => {
    const file = path.join(root, 'lines');
    const all = lines();
    await writeFile(file, `${all.join('\n')}\n`);
    const whole: FileLine[] = [];
    await scanLines(file, (line) => {
      whole.push(line);
    });
    const from = whole[150]!;
    const to = whole[260]!;
    const part: string[] = [];
    const { torn } = await scanLines(
      file,
      (line) => {
        part.push(line.text);
      },
      {
        start: from.offset,
        end: to.offset + to.length + 1,
      },
    );
    expect(part).toEqual(all.slice(150, 261));
    expect(torn).toBeNull();
  });

  it('stops where the reader says it has read enough, reading little at a time when asked', async () => {
    const file = path.join(root, 'lines');
    await writeFile(file, `${lines(true).join('\n')}\n{"torn`);
    const seen: string[] = [];
    const { torn } = await scanLines(file, (line) => seen.push(line.text) < 5, { chunkBytes: 4096 });
    expect(seen).toEqual(lines(true).slice(0, 5));
    expect(torn).toBeNull();
  });

  it('stops at an error of the reader and gives it back, with no read left running', async () => {
    const file = path.join(root, 'lines');
    await writeFile(file, `${lines().join('\n')}\n`);
    let count = 0;
    await expect(
      scanLines(file, () => {
        count += 1;
        if (count === 120) throw new Error('enough');
      }),
    ).rejects.toThrow('enough');
    expect(count).toBe(120);
  });
});
