import { open } from 'node:fs/promises';

// A session file read as a stream of whole lines, each with the byte range it holds, so a reader
// never builds one string of the whole file and can come back for a range later.

export interface FileLine {
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Bytes of the line, without its newline. */
  length: number;
}

export interface LineScan {
  /** Bytes after the last newline (a write that never finished), or null. */
  torn: { offset: number; bytes: Buffer } | null;
}

const NEWLINE = 0x0a;
const CHUNK = 1 << 20;

/**
 * Calls `onLine` for each newline-terminated line of `file` from byte `start` up to byte `end`
 * (the file's end when absent), in order; what follows the last newline is returned as torn.
 */
export async function scanLines(
  file: string,
  onLine: (line: FileLine) => void,
  range: { start?: number; end?: number } = {},
): Promise<LineScan> {
  const handle = await open(file, 'r');
  try {
    const start = range.start ?? 0;
    const end = range.end ?? (await handle.stat()).size;
    let carry: Buffer | null = null;
    let carryOffset = start;
    let position = start;
    const chunk = Buffer.allocUnsafe(CHUNK);
    while (position < end) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, end - position), position);
      if (bytesRead === 0) break;
      const data: Buffer = carry ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      const base = carry ? carryOffset : position;
      position += bytesRead;
      let from = 0;
      for (let newline = data.indexOf(NEWLINE, from); newline >= 0; newline = data.indexOf(NEWLINE, from)) {
        onLine({ text: data.toString('utf8', from, newline), offset: base + from, length: newline - from });
        from = newline + 1;
      }
      // The rest waits for the next chunk; it is copied, since the chunk buffer is reused.
      carry = from < data.length ? Buffer.from(data.subarray(from)) : null;
      carryOffset = base + from;
    }
    return { torn: carry && carry.length > 0 ? { offset: carryOffset, bytes: carry } : null };
  } finally {
    await handle.close();
  }
}
