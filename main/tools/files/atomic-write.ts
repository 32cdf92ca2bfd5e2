import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

// Atomic replacement: write a temp file beside the target, fsync it, rename it over the target.
// A reader sees the old file or the new one, never half of either; a failure leaves the target
// as it was and removes the temp file.

export interface AtomicWriteOptions {
  /** Permission bits of the new file; default: the existing file's, else 0o666 less the umask. */
  mode?: number;
}

/** The temp file's name: hidden, beside the target, short enough for any file-name limit. */
export function tempPathFor(target: string): string {
  const base = path.basename(target).slice(0, 100);
  return path.join(path.dirname(target), `.${base}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function writeFileAtomic(
  target: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? (await existingMode(target));
  const temp = tempPathFor(target);
  let handle: FileHandle | undefined = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    0o666,
  );
  try {
    // The open mode is filtered by the umask; an existing file's bits are restored exactly.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(path.dirname(target));
}

async function existingMode(target: string): Promise<number | undefined> {
  try {
    return (await stat(target)).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Makes the rename itself durable; some file systems refuse to fsync a folder, which is fine. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Durability of the folder entry is best effort; the data itself is already synced.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
