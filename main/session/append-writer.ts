import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

// Appends lines to one file and fsyncs them before the caller hears back. Lines that arrive while
// a write is in flight are grouped into the next write and share one fsync, so parallel tools do
// not pay one disk flush each; the order of lines is the order of `append` calls.

interface Pending {
  text: string;
  resolve(): void;
  reject(error: Error): void;
}

export class AppendWriter {
  private readonly handle: FileHandle;
  readonly file: string;
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;

  private constructor(file: string, handle: FileHandle) {
    this.file = file;
    this.handle = handle;
  }

  /** Opens `file` for appending (creating it with mode 0600; `exclusive` refuses an existing file) and makes its folder entry durable. */
  static async open(file: string, options: { exclusive?: boolean } = {}): Promise<AppendWriter> {
    const handle = await open(file, options.exclusive ? 'ax' : 'a', 0o600);
    await syncFolder(path.dirname(file));
    return new AppendWriter(file, handle);
  }

  append(text: string): Promise<void> {
    if (this.closed)
      return Promise.reject(new Error(`The session file ${this.file} is closed; nothing more can be written to it.`));
    return new Promise((resolve, reject) => {
      this.pending.push({ text, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.writeAll(Buffer.from(batch.map((entry) => entry.text).join(''), 'utf8'));
        await this.handle.sync();
        for (const entry of batch) entry.resolve();
      } catch (error) {
        const reason = new Error(`Could not write the session file ${this.file}: ${(error as Error).message}`);
        for (const entry of batch) entry.reject(reason);
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

  /** Waits for every line handed over so far, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.handle.close();
  }
}

/** Makes a new file's directory entry durable too (a crash right after creation keeps the file). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the file's own fsync still holds.
  } finally {
    await handle.close();
  }
}
