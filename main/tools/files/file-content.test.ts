import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textChunks } from './file-content.ts';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-file-content-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function chunksOf(content: string | Buffer, chunkBytes: number): Promise<Buffer[] | null> {
  const file = path.join(folder, 'file');
  await writeFile(file, content);
  const handle = await open(file);
  try {
    const chunks = await textChunks(handle, chunkBytes, new AbortController().signal);
    if (chunks === null) return null;
    const kept: Buffer[] = [];
    for await (const chunk of chunks) kept.push(chunk);
    return kept;
  } finally {
    await handle.close();
  }
}

describe('textChunks', () => {
  it('gives every chunk a buffer of its own, so kept chunks still hold their bytes after later reads', async () => {
    const kept = await chunksOf('aaaabbbbcc', 4);
    expect(kept?.map((chunk) => chunk.toString())).toEqual(['aaaa', 'bbbb', 'cc']);
  });

  it('is null for a file whose start looks binary', async () => {
    expect(await chunksOf(Buffer.from([0x61, 0x00, 0x62]), 4)).toBeNull();
  });
});
