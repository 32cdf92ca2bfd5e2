import { open } from 'node:fs/promises';

/**
 * Makes the entries of a folder durable: after a new file's own fsync, this keeps its name through a
 * crash right after creation (or a rename into the folder).
 */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder: the file's own bytes are flushed, its name is up to the system.
  } finally {
    await handle.close();
  }
}
