import { closeSync, openSync, writev } from 'node:fs';
import { errorMessage } from '../../../protocol/errors.ts';

// The file a command's complete output goes to once it outgrows memory. Chunks are gathered and
// written in batches (one `writev` per batch on libuv's thread pool): a write per read of the pipe
// costs a thread-pool round trip and a pause of the pipe each time, which was most of exec's own
// cost on a fast stream. Memory stays bounded: one batch being written and at most one gathered;
// past that the writer asks its source to pause until the write under way has finished.

/** Bytes gathered before they are written as one batch. */
export const SPILL_BATCH_BYTES = 256 * 1024;

export class SpillWriter {
  private readonly batchBytes: number;
  private readonly onError: (message: string) => void;
  private fd: number | null;
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private writingBytes = 0;
  private failure: string | null = null;
  private readonly drainWaiters: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];

  /** Opens (creates or empties) `file`, 0600; throws when it cannot be opened. */
  constructor(file: string, onError: (message: string) => void, batchBytes = SPILL_BATCH_BYTES) {
    this.onError = onError;
    this.batchBytes = batchBytes;
    this.fd = openSync(file, 'w', 0o600);
  }

  /** Bytes accepted and not yet written. */
  get pendingBytes(): number {
    return this.queuedBytes + this.writingBytes;
  }

  /** True while a full batch waits behind a write under way: the source should pause. */
  get needsDrain(): boolean {
    return this.writingBytes > 0 && this.queuedBytes >= this.batchBytes;
  }

  /** Takes a chunk (the caller must not change it). False when the source should pause until `drained()`. */
  write(chunk: Buffer): boolean {
    if (this.fd === null || this.failure !== null) return true;
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes >= this.batchBytes) this.writeQueued();
    return !this.needsDrain;
  }

  /** Resolves once the source may go on (at once when it may already). */
  drained(): Promise<void> {
    if (!this.needsDrain) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Writes what is gathered, waits for every write and closes the file; rejects if any write failed. */
  async close(): Promise<void> {
    // What was gathered while the last batch was being written goes after it.
    while (this.failure === null && this.pendingBytes > 0) {
      this.writeQueued();
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    this.closeFile();
    if (this.failure !== null) throw new Error(this.failure);
  }

  private writeQueued(): void {
    if (this.writingBytes > 0 || this.queuedBytes === 0 || this.fd === null || this.failure !== null) return;
    const batch = this.queue;
    this.writingBytes = this.queuedBytes;
    this.queue = [];
    this.queuedBytes = 0;
    this.writeBatch(this.fd, batch, this.writingBytes);
  }

  private writeBatch(fd: number, batch: Buffer[], bytes: number): void {
    writev(fd, batch, (error, written) => {
      if (error) return this.fail(errorMessage(error));
      if (written === 0) return this.fail('the file took no more bytes');
      // A short write (a full disk, a signal): the rest goes again from where the file stopped.
      if (written < bytes) return this.writeBatch(fd, rest(batch, written), bytes - written);
      this.writingBytes = 0;
      // A full batch was gathered meanwhile: it goes at once, and the source may read on.
      if (this.queuedBytes >= this.batchBytes) this.writeQueued();
      this.release();
    });
  }

  private fail(message: string): void {
    this.failure = message;
    this.queue = [];
    this.queuedBytes = 0;
    this.writingBytes = 0;
    this.closeFile();
    this.onError(message);
    this.release();
  }

  private closeFile(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } catch (error) {
      this.failure ??= errorMessage(error);
    }
  }

  /** Wakes a paused source when it may go on, and `close()` once nothing is being written. */
  private release(): void {
    if (!this.needsDrain) for (const resolve of this.drainWaiters.splice(0)) resolve();
    if (this.writingBytes === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

/** The buffers of `batch` after its first `written` bytes. */
function rest(batch: Buffer[], written: number): Buffer[] {
  let skip = written;
  let index = 0;
  while (index < batch.length && skip >= batch[index]!.length) skip -= batch[index++]!.length;
  const left = batch.slice(index);
  if (left.length > 0 && skip > 0) left[0] = left[0]!.subarray(skip);
  return left;
}
