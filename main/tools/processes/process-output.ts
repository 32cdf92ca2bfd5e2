import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../../protocol/errors.ts';
import { countNewlines } from '../exec/count-newlines.ts';
import { completeUtf8End } from '../exec/output-accumulator.ts';

// What a background process printed, kept for as long as it runs and after: the newest bytes in a
// ring in memory, and on disk in the session's folder as two segment files that take turns, so
// the disk holds at most the limit. The oldest output is what is dropped, never the newest, and a
// read that reaches back past what is kept says how much is gone. Offsets count every byte the
// process ever printed, so a reader can go on from where it stopped whatever was dropped meanwhile.

export interface ProcessOutputLimits {
  /** Newest bytes kept in memory. */
  memoryBytes: number;
  /** Bytes kept on disk (two segments of half each). */
  diskBytes: number;
}

export const DEFAULT_PROCESS_OUTPUT_LIMITS: ProcessOutputLimits = {
  memoryBytes: 256 * 1024,
  diskBytes: 16 * 1024 * 1024,
};

/** Gathered before one write to the file: a write per pipe read would cost a system call each. */
const WRITE_BATCH_BYTES = 64 * 1024;

/** A stretch of the output, decoded. */
export interface OutputSlice {
  text: string;
  /** Offset of the first byte `text` holds. */
  from: number;
  /** Offset just past its last byte: where the next read goes on. */
  to: number;
  /** Bytes between the offset asked for and `from` that are no longer kept. */
  dropped: number;
}

interface Segment {
  file: string;
  start: number;
  bytes: number;
  fd: number | null;
}

export class ProcessOutput {
  private readonly limits: ProcessOutputLimits;
  /** The path its files are named from. */
  readonly base: string;
  private totalBytes = 0;
  private newlines = 0;
  private lastByte = -1;
  private ring: Buffer[] = [];
  private ringBytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private segments: Segment[] = [];
  private segmentCount = 0;
  private diskError: string | null = null;

  /** `base`: the path its segment files are named from (`<base>.0.log`, `<base>.1.log` …). */
  constructor(base: string, limits: ProcessOutputLimits = DEFAULT_PROCESS_OUTPUT_LIMITS) {
    this.base = base;
    this.limits = limits;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Lines so far; a last line without its newline yet counts. */
  get lines(): number {
    return this.newlines + (this.totalBytes > 0 && this.lastByte !== 0x0a ? 1 : 0);
  }

  /** Offset of the oldest byte still kept, in memory or on disk. */
  get keptFrom(): number {
    const onDisk = this.diskError === null ? this.segments[0]?.start : undefined;
    return Math.min(onDisk ?? this.ringStart, this.ringStart);
  }

  /** The files that hold the output kept on disk, oldest first. */
  get files(): string[] {
    return this.segments.map((segment) => segment.file);
  }

  /** Why the output could not be kept on disk, when it could not. */
  get fileError(): string | null {
    return this.diskError;
  }

  /** Bytes held in memory: the ring and what waits to be written. */
  get heldBytes(): number {
    return this.ringBytes + this.pendingBytes;
  }

  private get ringStart(): number {
    return this.totalBytes - this.ringBytes;
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.totalBytes += chunk.length;
    this.newlines += countNewlines(chunk);
    this.lastByte = chunk[chunk.length - 1]!;
    const kept =
      chunk.length > this.limits.memoryBytes ? chunk.subarray(chunk.length - this.limits.memoryBytes) : chunk;
    this.ring.push(kept);
    this.ringBytes += kept.length;
    while (this.ring.length > 1 && this.ringBytes - this.ring[0]!.length >= this.limits.memoryBytes) {
      this.ringBytes -= this.ring.shift()!.length;
    }
    if (this.diskError !== null) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= WRITE_BATCH_BYTES) this.flush();
  }

  /**
   * The output from `from` on, at most `maxBytes` of it: the newest `maxBytes` when more is there
   * (`dropped` then counts what was skipped too). A character still arriving is left for the next read.
   */
  read(from: number, maxBytes: number): OutputSlice {
    // What waits for the disk is written first, so the disk holds everything before the ring.
    if (from < this.ringStart) this.flush();
    const start = Math.max(from, this.keptFrom, this.totalBytes - maxBytes);
    const raw = this.bytesBetween(start, this.totalBytes);
    // A read that starts past where it was asked to may start inside a character: that part is skipped.
    let skip = 0;
    if (start > from) while (skip < Math.min(raw.length, 3) && (raw[skip]! & 0xc0) === 0x80) skip += 1;
    const whole = Math.max(skip, completeUtf8End(raw));
    return {
      text: raw.toString('utf8', skip, whole),
      from: start + skip,
      to: start + whole,
      dropped: start + skip - Math.max(0, from),
    };
  }

  /** The last `count` lines kept in memory (at most `maxBytes`), decoded. */
  tail(count: number, maxBytes: number): OutputSlice {
    const slice = this.read(Math.max(0, this.totalBytes - maxBytes), maxBytes);
    const body = slice.text.endsWith('\n') ? slice.text.length - 1 : slice.text.length;
    let at = body;
    for (let line = 0; line < count && at > 0; line += 1) at = slice.text.lastIndexOf('\n', at - 1);
    if (at <= 0) return slice;
    const text = slice.text.slice(at + 1);
    const from = slice.to - Buffer.byteLength(text);
    return { text, from, to: slice.to, dropped: 0 };
  }

  /** Writes what is gathered to the current segment, and turns to the next segment when it is full. */
  flush(): void {
    if (this.diskError !== null || this.pendingBytes === 0) return;
    const batch = this.pending;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    try {
      let segment = this.segments.at(-1) ?? this.nextSegment(this.totalBytes - bytes);
      for (const chunk of batch) {
        let offset = 0;
        while (offset < chunk.length) {
          const room = this.segmentBytes - segment.bytes;
          const part = chunk.subarray(offset, offset + Math.max(1, room));
          writeAll(segment.fd!, part);
          segment.bytes += part.length;
          offset += part.length;
          if (segment.bytes >= this.segmentBytes) segment = this.nextSegment(segment.start + segment.bytes);
        }
      }
    } catch (error) {
      this.failDisk(`${errorMessage(error)} (${bytes} bytes not written)`);
    }
  }

  /** Writes what is gathered and closes the files; the output stays readable. */
  close(): void {
    this.flush();
    for (const segment of this.segments) closeQuietly(segment);
  }

  private get segmentBytes(): number {
    return Math.max(1, Math.floor(this.limits.diskBytes / 2));
  }

  private nextSegment(start: number): Segment {
    const previous = this.segments.at(-1);
    if (previous) closeQuietly(previous);
    if (this.segments.length === 0) mkdirSync(path.dirname(this.base), { recursive: true, mode: 0o700 });
    const file = `${this.base}.${this.segmentCount}.log`;
    this.segmentCount += 1;
    const segment: Segment = { file, start, bytes: 0, fd: openSync(file, 'w', 0o600) };
    this.segments.push(segment);
    // Two segments at most: the older one goes, so the disk keeps between half and all of the limit.
    while (this.segments.length > 2) {
      const dropped = this.segments.shift()!;
      closeQuietly(dropped);
      try {
        unlinkSync(dropped.file);
      } catch {
        // Already gone: the limit holds either way.
      }
    }
    return segment;
  }

  private bytesBetween(start: number, end: number): Buffer {
    if (start >= end) return Buffer.alloc(0);
    if (start >= this.ringStart) return sliceOf(this.ring, start - this.ringStart, end - this.ringStart);
    this.flush();
    const fromDisk = Buffer.alloc(Math.min(end, this.ringStart) - start);
    let filled = 0;
    for (const segment of this.segments) {
      const segmentEnd = segment.start + segment.bytes;
      const at = start + filled;
      if (at >= segmentEnd || filled >= fromDisk.length) continue;
      const fd = openSync(segment.file, 'r');
      try {
        const want = Math.min(segmentEnd - at, fromDisk.length - filled);
        filled += readSync(fd, fromDisk, filled, want, at - segment.start);
      } finally {
        closeSync(fd);
      }
    }
    const rest = end > this.ringStart ? sliceOf(this.ring, 0, end - this.ringStart) : Buffer.alloc(0);
    return Buffer.concat([fromDisk.subarray(0, filled), rest]);
  }

  private failDisk(message: string): void {
    this.diskError = message;
    this.pending = [];
    this.pendingBytes = 0;
    for (const segment of this.segments) closeQuietly(segment);
    this.segments = [];
  }
}

function sliceOf(chunks: readonly Buffer[], start: number, end: number): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const chunk of chunks) {
    const chunkEnd = at + chunk.length;
    if (chunkEnd > start && at < end)
      parts.push(chunk.subarray(Math.max(0, start - at), Math.min(chunk.length, end - at)));
    at = chunkEnd;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) {
    const wrote = writeSync(fd, bytes, written);
    if (wrote === 0) throw new Error('the disk took no more bytes');
    written += wrote;
  }
}

function closeQuietly(segment: Segment): void {
  if (segment.fd === null) return;
  try {
    closeSync(segment.fd);
  } catch {
    // Its bytes were written; a failed close loses nothing more.
  }
  segment.fd = null;
}
