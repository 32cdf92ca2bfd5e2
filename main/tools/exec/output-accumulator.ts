import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../../protocol/errors.ts';
import type { ToolProgress } from '../../../protocol/tools.ts';

// What a running command printed, kept three ways (seed 004):
// - the complete output for the final result: in memory while it fits the pipeline's limit, then
//   in a 0600 file, so a 100 MB build never sits in the main process;
// - a raw tail of the newest bytes, which the final result is decoded from, once, whole;
// - a live tail, decoded as chunks arrive (a streaming decoder, so a character split across two
//   chunks is held back instead of shown as U+FFFD), bounded to a window for progress reports.
// `append` is called between two reads of a pipe or an SSH channel: it returns at once and never
// awaits; file writes go through a stream whose backpressure the caller may honour.

export const LIVE_WINDOW_BYTES = 64 * 1024;

export interface AccumulatorLimits {
  /** Output up to this many bytes stays in memory; past it, it goes to the spill file. */
  memoryBytes: number;
  /** Output up to this many lines stays in memory. */
  memoryLines: number;
  /** Bytes of the newest output kept for the final result once the output is spilled. */
  tailBytes: number;
  /** Bytes of the newest output kept for progress reports. */
  liveBytes: number;
}

export interface FinalOutput {
  /** The whole output when it stayed in memory, else its newest `tailBytes`, decoded once. */
  text: string;
  totalBytes: number;
  totalLines: number;
  /** True when `text` is a tail of a longer output. */
  cut: boolean;
  /** The file holding the complete output, when it was spilled and written without error. */
  path?: string;
  /** Why the complete output could not be kept, when writing the file failed. */
  spillError?: string;
}

export interface AccumulatorCounters {
  /** Most bytes ever held in memory for the final result (held chunks or the raw tail). */
  peakHeldBytes: number;
  /** Most bytes ever queued for the spill file and not yet written. */
  peakPendingWriteBytes: number;
}

export class OutputAccumulator {
  private readonly limits: AccumulatorLimits;
  private readonly spillFile: string;
  private totalBytes = 0;
  private newlines = 0;
  private lastByte = -1;

  // Before spilling: every chunk. After: only the raw tail, trimmed lazily to `tailBytes`.
  private held: Buffer[] = [];
  private heldBytes = 0;
  private spill: WriteStream | null = null;
  private spillError: string | null = null;
  private readonly drainWaiters: (() => void)[] = [];

  private readonly decoder = new TextDecoder('utf-8');
  private live = '';
  private liveBytes = 0;
  private liveCut = 0;
  private finished = false;

  readonly counters: AccumulatorCounters = { peakHeldBytes: 0, peakPendingWriteBytes: 0 };

  constructor(spillFile: string, limits: AccumulatorLimits) {
    this.spillFile = spillFile;
    this.limits = limits;
  }

  /** Keeps a chunk. False when the spill file is behind: pause the source until `drained()`. */
  append(chunk: Buffer): boolean {
    if (this.finished || chunk.length === 0) return true;
    this.totalBytes += chunk.length;
    this.newlines += countNewlines(chunk);
    this.lastByte = chunk[chunk.length - 1]!;
    this.appendLive(this.decoder.decode(chunk, { stream: true }));

    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (
      !this.spill &&
      !this.spillError &&
      (this.totalBytes > this.limits.memoryBytes || this.lines() > this.limits.memoryLines)
    ) {
      this.startSpill();
    } else if (this.spill) {
      this.spill.write(chunk);
    }
    if (this.spill || this.spillError) this.trimHeldToTail();
    this.counters.peakHeldBytes = Math.max(this.counters.peakHeldBytes, this.heldBytes);
    if (!this.spill) return true;
    this.counters.peakPendingWriteBytes = Math.max(this.counters.peakPendingWriteBytes, this.spill.writableLength);
    return !this.spill.writableNeedDrain;
  }

  /** Resolves when the spill file has caught up (at once when nothing is queued). */
  drained(): Promise<void> {
    if (!this.spill || !this.spill.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Everything so far for the live view: the newest window of decoded text and what it cut. */
  progress(): ToolProgress {
    this.trimLive(this.limits.liveBytes);
    return { text: this.live, cut_bytes: this.liveCut, total_bytes: this.totalBytes };
  }

  /** Ends the output: flushes the decoder and the file, then decodes the final text once. */
  async finish(): Promise<FinalOutput> {
    if (!this.finished) {
      this.finished = true;
      this.appendLive(this.decoder.decode());
      if (this.spill) await closeStream(this.spill).catch((error: unknown) => this.noteSpillError(error));
      this.releaseDrainWaiters();
    }
    const raw = Buffer.concat(this.held);
    const spilled = this.spill !== null || this.spillError !== null;
    const keep = spilled ? Math.min(raw.length, this.limits.tailBytes) : raw.length;
    const cut = keep < this.totalBytes;
    const text = cut ? decodeTail(raw.subarray(raw.length - keep)) : raw.toString('utf8');
    return {
      text,
      totalBytes: this.totalBytes,
      totalLines: this.lines(),
      cut,
      ...(this.spill && !this.spillError ? { path: this.spillFile } : {}),
      ...(this.spillError ? { spillError: this.spillError } : {}),
    };
  }

  /** Lines so far; a last line without its newline yet counts, as it will in the final result. */
  private lines(): number {
    return this.newlines + (this.totalBytes > 0 && this.lastByte !== 0x0a ? 1 : 0);
  }

  private startSpill(): void {
    try {
      mkdirSync(path.dirname(this.spillFile), { recursive: true, mode: 0o700 });
      const stream = createWriteStream(this.spillFile, { flags: 'w', mode: 0o600 });
      stream.on('error', (error) => this.noteSpillError(error));
      stream.on('drain', () => this.releaseDrainWaiters());
      for (const chunk of this.held) stream.write(chunk);
      this.spill = stream;
    } catch (error) {
      this.noteSpillError(error);
    }
  }

  private noteSpillError(error: unknown): void {
    this.spillError ??= errorMessage(error);
    // Stop writing to a broken file; the tail in memory still serves the final result.
    this.spill?.destroy();
    this.spill = null;
    this.releaseDrainWaiters();
  }

  private releaseDrainWaiters(): void {
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }

  /** Drops whole chunks the raw tail no longer needs: it holds at most `tailBytes` plus one chunk. */
  private trimHeldToTail(): void {
    while (this.held.length > 1 && this.heldBytes - this.held[0]!.length >= this.limits.tailBytes) {
      this.heldBytes -= this.held.shift()!.length;
    }
  }

  private appendLive(text: string): void {
    if (text.length === 0) return;
    this.live += text;
    this.liveBytes += Buffer.byteLength(text);
    // Trim lazily (at twice the window) so the cost stays linear in the output.
    if (this.liveBytes > this.limits.liveBytes * 2) this.trimLive(this.limits.liveBytes);
  }

  private trimLive(window: number): void {
    if (this.liveBytes <= window) return;
    const kept = utf8Suffix(this.live, window);
    const keptBytes = Buffer.byteLength(kept);
    this.liveCut += this.liveBytes - keptBytes;
    this.live = kept;
    this.liveBytes = keptBytes;
  }
}

function countNewlines(chunk: Buffer): number {
  let count = 0;
  for (let index = chunk.indexOf(0x0a); index !== -1; index = chunk.indexOf(0x0a, index + 1)) count += 1;
  return count;
}

/** The longest suffix of whole characters within `maxBytes` UTF-8 bytes. */
export function utf8Suffix(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes, and a pair is 4: the suffix fits in the last maxBytes units.
  const candidate = Buffer.from(text.slice(-maxBytes));
  if (candidate.length <= maxBytes) return text.slice(-maxBytes).replace(/^[\udc00-\udfff]/, '');
  return decodeTail(candidate.subarray(candidate.length - maxBytes));
}

/** Decodes bytes that may start inside a character: the partial character is dropped, not shown as U+FFFD. */
export function decodeTail(raw: Buffer): string {
  let start = 0;
  while (start < Math.min(raw.length, 3) && (raw[start]! & 0xc0) === 0x80) start += 1;
  return raw.subarray(start).toString('utf8');
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}
