import { writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { syncFolder } from '../tools/files/sync-folder.ts';

// Appends lines to one file and fsyncs them before the caller hears back. Lines that arrive while
// a write is in flight are grouped into the next write and share one fsync, so parallel tools do
// not pay one disk flush each; the order of lines is the order of `append` calls. Lines appended in
// the same synchronous stretch (a call's content and its completion) always go in one write. A line
// appended with `sync: false` is written but not flushed on its own: the next synced line's fsync
// makes it durable with everything before it. Such a line waits a moment for others to share its
// write (GATHER_MS), unless a synced line or close comes first. A synced line appended with
// `gather: true` waits the same moment (a read-only call's start, whose caller waits for none of its
// records: its completion, a moment later, then shares its write and its fsync); it resolves once
// flushed, as any synced line.
// A write that fails part-way (a full disk) leaves part of a line behind. The file is cut back to
// the end of the last write that succeeded, so the next line is not glued onto those bytes (which
// would make both unreadable); if even that fails, the next write starts on a new line, so only the
// partial one is lost. Either way the writer remembers what happened (`damage`).

/** What the last failed write left behind, for whoever shows the session's state. */
export interface WriteDamage {
  error: string;
  /** true: the file was cut back to its last whole line; false: the partial bytes are still in it. */
  repaired: boolean;
}

/** Lines waiting for the next write: they share it, its fsync and its outcome, so one promise serves them all. */
interface Batch {
  texts: string[];
  /** Whether any of them needs the fsync. */
  sync: boolean;
  done: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function newBatch(): Batch {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const done = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { texts: [], sync: false, done, resolve, reject };
}

/**
 * Lines that need no fsync (a nested Code Mode call's) and fit in this many bytes are written with a
 * synchronous write(): it only copies them into the page cache, and saves a thread-pool round trip
 * per batch. Larger batches, and any batch that is flushed, are written off the thread.
 */
const SMALL_UNSYNCED_WRITE = 64 * 1024;

/**
 * A line that needs no fsync, or is appended with `gather`, waits this long for company before it
 * is written (a synced line, or close, writes it at once): a program's nested calls, one every
 * fraction of a millisecond, then share a write instead of paying one each, and a quick read's start
 * shares its completion's write and fsync. The panel hears of such a line this much later at most.
 */
const GATHER_MS = 2;

export class AppendWriter {
  private readonly handle: FileHandle;
  readonly file: string;
  private pending: Batch | null = null;
  private flushing: Promise<void> | null = null;
  /** Set while unsynced lines wait to be written (UNSYNCED_GATHER_MS). */
  private gathering: NodeJS.Timeout | undefined;
  private closed = false;
  /** The file's length after the last write that succeeded. */
  private durableLength: number;
  /** Partial bytes that could not be cut off end the file: the next write begins with a newline. */
  private tornTail = false;
  /** The last failed write, until one succeeds again. */
  damage: WriteDamage | null = null;

  private constructor(file: string, handle: FileHandle, length: number) {
    this.file = file;
    this.handle = handle;
    this.durableLength = length;
  }

  /** Opens `file` for appending (creating it with mode 0600; `exclusive` refuses an existing file) and makes its folder entry durable. */
  static async open(file: string, options: { exclusive?: boolean } = {}): Promise<AppendWriter> {
    const handle = await open(file, options.exclusive ? 'ax' : 'a', 0o600);
    try {
      const { size } = await handle.stat();
      await syncFolder(path.dirname(file));
      return new AppendWriter(file, handle, size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Resolves once the line is written and, unless `sync` is false, flushed to the disk; with
   * `gather`, a synced line waits up to GATHER_MS for others to share its write.
   */
  append(text: string, options: { sync?: boolean; gather?: boolean } = {}): Promise<void> {
    if (this.closed)
      return Promise.reject(new Error(`The session file ${this.file} is closed; nothing more can be written to it.`));
    const sync = options.sync ?? true;
    const batch = (this.pending ??= newBatch());
    batch.texts.push(text);
    if (sync) batch.sync = true;
    // A write under way takes everything pending when it is done.
    if (!this.flushing) {
      if (sync && options.gather !== true) this.flushNow();
      else this.gathering ??= setTimeout(() => this.flushNow(), GATHER_MS);
    }
    return batch.done;
  }

  private flushNow(): void {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    this.flushing ??= this.flush();
  }

  private async flush(): Promise<void> {
    // Lines appended later in the same synchronous stretch join this write.
    await Promise.resolve();
    for (let batch = this.pending; batch; batch = this.pending) {
      this.pending = null;
      const text = (this.tornTail ? '\n' : '') + batch.texts.join('');
      const bytes = Buffer.from(text, 'utf8');
      try {
        const { sync } = batch;
        if (!sync && bytes.length <= SMALL_UNSYNCED_WRITE) this.writeAllNow(bytes);
        else await this.writeAll(bytes);
        if (sync) await this.handle.sync();
        // After partial bytes that could not be cut off, only the file itself knows its length.
        this.durableLength = this.tornTail ? (await this.handle.stat()).size : this.durableLength + bytes.length;
        this.tornTail = false;
        this.damage = null;
        batch.resolve();
      } catch (error) {
        const repaired = await this.cutBack();
        this.damage = { error: (error as Error).message, repaired };
        const after = repaired
          ? 'the file was cut back to its last whole record'
          : 'the partial record stays in the file and the next one starts on a new line';
        const reason = new Error(
          `Could not write the session file ${this.file}: ${(error as Error).message} (${after})`,
        );
        batch.reject(reason);
      }
    }
    this.flushing = null;
  }

  /** A write may take only part of the bytes (a nearly full disk): the rest goes on, or fails. */
  private async writeAll(bytes: Buffer): Promise<void> {
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset);
      if (bytesWritten === 0) throw new Error('the disk took none of the bytes');
      offset += bytesWritten;
    }
  }

  /** The same, in this thread: one write() into the page cache, cheaper than a thread-pool round trip. */
  private writeAllNow(bytes: Buffer): void {
    for (let offset = 0; offset < bytes.length;) {
      const written = writeSync(this.handle.fd, bytes, offset, bytes.length - offset);
      if (written === 0) throw new Error('the disk took none of the bytes');
      offset += written;
    }
  }

  /** Truncates the file to what the last successful write left; false when even that fails. */
  private async cutBack(): Promise<boolean> {
    try {
      await this.handle.truncate(this.durableLength);
      await this.handle.sync();
      return true;
    } catch {
      this.tornTail = true;
      return false;
    }
  }

  /** Waits for every line handed over so far, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pending) this.flushNow();
    while (this.flushing) await this.flushing;
    await this.handle.close();
  }
}
