import { isAscii } from 'node:buffer';
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

export interface ScanRange {
  start?: number;
  end?: number;
  /** Bytes read at a time (1 MiB): less for a reader that wants only the first lines. */
  chunkBytes?: number;
}

/**
 * Calls `onLine` for each newline-terminated line of `file` from byte `start` up to byte `end`
 * (the file's end when absent), in order, until it returns `false`; what follows the last newline
 * is returned as torn (null when the scan was stopped).
 */
export async function scanLines(
  file: string,
  onLine: (line: FileLine) => void | boolean,
  range: ScanRange = {},
): Promise<LineScan> {
  const handle = await open(file, 'r');
  let next: Promise<{ bytesRead: number }> | null = null;
  try {
    const start = range.start ?? 0;
    const end = range.end ?? (await handle.stat()).size;
    let carry: Buffer | null = null;
    let carryOffset = start;
    let position = start;
    // Two buffers: the next chunk is read into one while the lines of the other are handled.
    const size = Math.min(range.chunkBytes ?? CHUNK, end - start);
    const chunks = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
    const readInto = (chunk: Buffer, at: number) =>
      at < end ? handle.read(chunk, 0, Math.min(chunk.length, end - at), at) : null;
    next = readInto(chunks[0]!, position);
    for (let turn = 0; next !== null; turn ^= 1) {
      const chunk = chunks[turn]!;
      const { bytesRead } = await next;
      if (bytesRead === 0) break;
      const base = carry ? carryOffset : position;
      position += bytesRead;
      next = readInto(chunks[turn ^ 1]!, position);
      const data: Buffer = carry ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let from = 0;
      if (isAscii(data)) {
        // Most chunks are plain ASCII: decoded once, each line is a slice of that text, and a
        // character is a byte, so the offsets are the text's.
        const text = data.toString('latin1');
        for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', from)) {
          if (onLine({ text: text.slice(from, newline), offset: base + from, length: newline - from }) === false)
            return { torn: null };
          from = newline + 1;
        }
      } else {
        for (let newline = data.indexOf(NEWLINE, from); newline >= 0; newline = data.indexOf(NEWLINE, from)) {
          const line = { text: data.toString('utf8', from, newline), offset: base + from, length: newline - from };
          if (onLine(line) === false) return { torn: null };
          from = newline + 1;
        }
      }
      // The rest waits for the next chunk; it is copied, since this chunk's buffer is read into again.
      carry = from < data.length ? Buffer.from(data.subarray(from)) : null;
      carryOffset = base + from;
    }
    return { torn: carry && carry.length > 0 ? { offset: carryOffset, bytes: carry } : null };
  } finally {
    // A read still in flight (onLine threw) ends before the file is closed under it.
    await next?.catch(() => undefined);
    await handle.close();
  }
}
