import { appendFile, mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileChunks, textChunks } from './file-content.ts';

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

/** The file's chunks through fileChunks given `size`, and the size of every buffer a read was given. */
async function readsOf(
  content: string,
  chunkBytes: number,
  size: number,
  onFirstChunk?: () => Promise<void>,
): Promise<{ chunks: string[]; buffers: number[] }> {
  const file = path.join(folder, 'file');
  await writeFile(file, content);
  const handle = await open(file);
  const buffers: number[] = [];
  const observed = {
    read: (buffer: Buffer, offset: number, length: number, position: null) => {
      buffers.push(buffer.length);
      return handle.read(buffer, offset, length, position);
    },
  } as unknown as FileHandle;
  try {
    const chunks: string[] = [];
    for await (const chunk of fileChunks(observed, chunkBytes, new AbortController().signal, size)) {
      chunks.push(chunk.toString());
      if (chunks.length === 1) await onFirstChunk?.();
    }
    return { chunks, buffers };
  } finally {
    await handle.close();
  }
}

describe('fileChunks given the file size', () => {
  it('reads a small file in one read, into a buffer of its size and one byte', async () => {
    const content = 'x'.repeat(600);
    const { chunks, buffers } = await readsOf(content, 256 * 1024, 600);
    expect(chunks).toEqual([content]);
    expect(buffers).toEqual([601]);
  });

  it('reads a larger file in whole chunks, the last buffer sized to what is left', async () => {
    const { chunks, buffers } = await readsOf('aaaabbbbcc', 4, 10);
    expect(chunks).toEqual(['aaaa', 'bbbb', 'cc']);
    expect(buffers).toEqual([4, 4, 3]);
  });

  it('still reads what a file gained after its size was taken', async () => {
    const file = path.join(folder, 'file');
    const { chunks } = await readsOf('aaaa', 4, 4, () => appendFile(file, 'bbbbbbbbc'));
    expect(chunks.join('')).toBe('aaaabbbbbbbbc');
  });
});
