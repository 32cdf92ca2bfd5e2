import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { asError } from '../../../protocol/errors.ts';
import { ToolError } from '../tool.ts';
import { openVerified } from './confined-fs.ts';
import { displayPath, isInside } from '../workspace.ts';

// What the file tools share about file contents: hashing, telling text from binary, streaming text
// in chunks, opening a confined path without following a link swapped in after confinement, and
// how a path is shown.

/** How much of a file's start decides whether it is text. */
export const SNIFF_BYTES = 8 * 1024;

export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Binary: a NUL byte in the sample, or more than a tenth of it undecodable as UTF-8. A few stray
 * bytes (a Latin-1 "é") still read as text, with replacement characters.
 */
export function looksBinary(sample: Uint8Array): boolean {
  const head = sample.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return true;
  // Streaming decode: a character cut by the sample's end is not counted as invalid.
  const text = new TextDecoder('utf-8').decode(head, { stream: true });
  let invalid = 0;
  for (let index = text.indexOf('\uFFFD'); index !== -1; index = text.indexOf('\uFFFD', index + 1)) invalid += 1;
  return invalid > 0 && invalid > text.length / 10;
}

/**
 * An open file's bytes for a reader of text: null when its start looks binary (the first chunk is
 * read here to tell), else its chunks of at most `chunkBytes`. Each chunk is a buffer of its own,
 * so a caller may keep slices of it; `signal` is checked before every read. `size` as in fileChunks.
 */
export async function textChunks(
  handle: FileHandle,
  chunkBytes: number,
  signal: AbortSignal,
  size?: number,
): Promise<AsyncIterable<Buffer> | null> {
  const chunks = fileChunks(handle, chunkBytes, signal, size)[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (!first.done && looksBinary(first.value)) return null;
  return (async function* () {
    if (first.done) return;
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();
}

/**
 * An open file's bytes from its position, in chunks of at most `chunkBytes`, whatever they hold.
 * Given the file's `size` (from the position), a buffer is no bigger than what is left of it plus
 * one byte, so a small file costs one buffer of its own size and one read: a read that does not
 * fill its buffer is the end. A file that grew past `size` goes on in whole chunks.
 */
export async function* fileChunks(
  handle: FileHandle,
  chunkBytes: number,
  signal: AbortSignal,
  size?: number,
): AsyncIterable<Buffer> {
  let left = size;
  for (;;) {
    const want = left === undefined ? chunkBytes : Math.min(chunkBytes, left + 1);
    const chunk = await nextChunk(handle, want, signal);
    if (chunk === null) return;
    yield chunk;
    if (left === undefined) continue;
    if (chunk.length < want) return;
    left = left > chunk.length ? left - chunk.length : undefined;
  }
}

/** The next chunk from the handle's position, in a buffer of `bytes`; null at the end of the file. */
async function nextChunk(handle: FileHandle, bytes: number, signal: AbortSignal): Promise<Buffer | null> {
  signal.throwIfAborted();
  const buffer = Buffer.allocUnsafe(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, null);
  return bytesRead === 0 ? null : buffer.subarray(0, bytesRead);
}

/**
 * Opens a confined real path for reading, verified at use time (confined-fs.ts): a link put in its
 * place, or in place of a folder on its path, after the confinement check is refused before a byte
 * is read. O_NONBLOCK keeps a FIFO from blocking the open (it is refused right after).
 */
export async function openForReading(real: string, shown: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await openVerified(real, constants.O_RDONLY | constants.O_NONBLOCK, shown);
  } catch (error) {
    throw openError(error, shown);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory())
      throw new ToolError(`${shown} is a folder, not a file. Use list_dir to see what it contains.`);
    if (!stat.isFile())
      throw new ToolError(`${shown} is not a regular file (a device, socket or pipe); only files can be read.`);
    return { handle, size: stat.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function openError(error: unknown, shown: string): Error {
  if (error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new ToolError(`${shown} does not exist. Check the path with list_dir or search_files.`);
  if (code === 'ELOOP')
    return new ToolError(`${shown} is a symbolic link that changed after it was checked; try again.`);
  if (code === 'EACCES' || code === 'EPERM') return new ToolError(`${shown} cannot be read: permission denied.`);
  if (code === 'EISDIR')
    return new ToolError(`${shown} is a folder, not a file. Use list_dir to see what it contains.`);
  return asError(error);
}

/**
 * The path as the model and the person see it: workspace-relative when the file is in the
 * workspace (as asked, so a link keeps its own name), else the real absolute path (a spill file).
 */
export function shownPath(workspace: string, requested: string, real: string): string {
  const lexical = path.resolve(workspace, requested);
  if (isInside(workspace, lexical)) return displayPath(workspace, lexical);
  if (isInside(workspace, real)) return displayPath(workspace, real);
  return real;
}
