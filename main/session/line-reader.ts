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
      const base = position;
      position += bytesRead;
      next = readInto(chunks[turn ^ 1]!, position);
      const data = chunk.subarray(0, bytesRead);
      let from = 0;
      if (carry) {
        // Only the line begun in the chunk before is put together; the rest is read where it lies.
        const newline = data.indexOf(NEWLINE);
        if (newline < 0) {
          carry = Buffer.concat([carry, data]);
          continue;
        }
        const whole = Buffer.concat([carry, data.subarray(0, newline)]);
        const line = { text: whole.toString('utf8'), offset: carryOffset, length: whole.length };
        carry = null;
        if (onLine(line) === false) return { torn: null };
        from = newline + 1;
      }
      from = eachLine(data, from, base, onLine);
      if (from < 0) return { torn: null };
      // The rest waits for the next chunk; it is copied, since this chunk's buffer is read into again.
      if (from < data.length) {
        carry = Buffer.from(data.subarray(from));
        carryOffset = base + from;
      }
    }
    return { torn: carry && carry.length > 0 ? { offset: carryOffset, bytes: carry } : null };
  } finally {
    // A read still in flight (onLine threw) ends before the file is closed under it.
    await next?.catch(() => undefined);
    await handle.close();
  }
}

/** Calls `onLine` for each whole line of `data` from `from`; where the rest starts, or -1 when told to stop. */
function eachLine(data: Buffer, from: number, base: number, onLine: (line: FileLine) => void | boolean): number {
  let at = from;
  if (isAscii(data.subarray(from))) {
    // Most chunks are plain ASCII: decoded once, each line is a slice of that text, and a
    // character is a byte, so the offsets are the text's.
    const text = data.toString('latin1', from);
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      if (onLine({ text: text.slice(start, newline), offset: base + from + start, length: newline - start }) === false)
        return -1;
      start = newline + 1;
    }
    return from + start;
  }
  for (let newline = data.indexOf(NEWLINE, at); newline >= 0; newline = data.indexOf(NEWLINE, at)) {
    if (onLine({ text: data.toString('utf8', at, newline), offset: base + at, length: newline - at }) === false)
      return -1;
    at = newline + 1;
  }
  return at;
}
