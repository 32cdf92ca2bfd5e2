import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../../protocol/errors.ts';
import type { ToolProgress } from '../../../protocol/tools.ts';
import { countNewlines } from './count-newlines.ts';
import { SpillWriter } from './spill-writer.ts';

// What a running command printed, kept three ways (the live-progress contract):
// - the complete output for the final result: in memory while it fits the pipeline's limit, then
//   in a 0600 file, so a 100 MB build never sits in the main process;
// - a raw tail of the newest bytes, which the final result is decoded from, once, whole;
// - a live tail of the newest bytes, bounded to a window and decoded only when a report is made
//   (at most one per throttle period); a character split at either end of the window is left
//   out, never shown as U+FFFD. No byte is decoded or re-encoded as it arrives.
// `append` is called between two reads of a pipe or an SSH channel: it returns at once and never
// awaits; file writes are batched (spill-writer.ts), with backpressure the caller may honour.

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
  private spill: SpillWriter | null = null;
  private spillError: string | null = null;

  // The newest chunks for the live view, at least `liveBytes` of them, trimmed by whole chunks.
  private live: Buffer[] = [];
  private liveBytes = 0;
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
    this.appendLive(chunk);

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
    this.counters.peakPendingWriteBytes = Math.max(this.counters.peakPendingWriteBytes, this.spill.pendingBytes);
    return !this.spill.needsDrain;
  }

  /** Resolves when the spill file has caught up enough for the source to go on (at once when it has). */
  drained(): Promise<void> {
    return this.spill ? this.spill.drained() : Promise.resolve();
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Everything so far for the live view: the newest window of output, decoded now, and the bytes before it. */
  progress(): ToolProgress {
    let window = this.live.length === 1 ? this.live[0]! : Buffer.concat(this.live);
    if (window.length > this.limits.liveBytes) window = window.subarray(window.length - this.limits.liveBytes);
    // A character still arriving is shown once whole; after the end, what is there is shown as it is.
    const end = this.finished ? window.length : completeUtf8End(window);
    const start = partialUtf8Start(window, end);
    return {
      text: window.toString('utf8', start, end),
      cut_bytes: this.totalBytes - (window.length - start),
      total_bytes: this.totalBytes,
    };
  }

  /** Ends the output: flushes the decoder and the file, then decodes the final text once. */
  async finish(): Promise<FinalOutput> {
    if (!this.finished) {
      this.finished = true;
      if (this.spill) await this.spill.close().catch((error: unknown) => this.noteSpillError(error));
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
      const writer = new SpillWriter(this.spillFile, (message) => this.noteSpillError(message));
      for (const chunk of this.held) writer.write(chunk);
      this.spill = writer;
    } catch (error) {
      this.noteSpillError(error);
    }
  }

  private noteSpillError(error: unknown): void {
    this.spillError ??= typeof error === 'string' ? error : errorMessage(error);
    // A broken file is written no more (the writer closed it); the tail in memory still serves the final result.
    this.spill = null;
  }

  /** Drops whole chunks the raw tail no longer needs: it holds at most `tailBytes` plus one chunk. */
  private trimHeldToTail(): void {
    while (this.held.length > 1 && this.heldBytes - this.held[0]!.length >= this.limits.tailBytes) {
      this.heldBytes -= this.held.shift()!.length;
    }
  }

  private appendLive(chunk: Buffer): void {
    this.live.push(chunk);
    this.liveBytes += chunk.length;
    while (this.live.length > 1 && this.liveBytes - this.live[0]!.length >= this.limits.liveBytes) {
      this.liveBytes -= this.live.shift()!.length;
    }
  }
}

/** The longest suffix of whole characters within `maxBytes` UTF-8 bytes. */
export function utf8Suffix(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes, and a pair is 4: the suffix fits in the last maxBytes units.
  const candidate = Buffer.from(text.slice(-maxBytes));
  if (candidate.length <= maxBytes) return text.slice(-maxBytes).replace(/^[\udc00-\udfff]/, '');
  return decodeTail(candidate.subarray(candidate.length - maxBytes));
}

/** Where the bytes of `raw` stop being whole characters: before a last character that is not all there yet. */
export function completeUtf8End(raw: Buffer): number {
  for (let back = 1; back <= Math.min(4, raw.length); back += 1) {
    const byte = raw[raw.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? raw.length - back : raw.length;
  }
  return raw.length;
}

/** How many bytes at the start of `raw` (up to `end`) belong to a character cut off before them. */
function partialUtf8Start(raw: Buffer, end: number): number {
  let start = 0;
  while (start < Math.min(end, 3) && (raw[start]! & 0xc0) === 0x80) start += 1;
  return start;
}

/** Decodes bytes that may start inside a character: the partial character is dropped, not shown as U+FFFD. */
export function decodeTail(raw: Buffer): string {
  let start = 0;
  while (start < Math.min(raw.length, 3) && (raw[start]! & 0xc0) === 0x80) start += 1;
  return raw.subarray(start).toString('utf8');
}
