import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { hashOf, type ObjectStore } from './object-store.ts';
import type { VerifiedFolder } from '../files/confined-fs.ts';

// Reading a file of the workspace into the checkpoint store. Small files (nearly all of them) are
// read and stored with synchronous calls: a first checkpoint of 10 000 files costs tens of
// thousands of tiny calls, and their hand-offs through the thread pool cost more than the calls
// (bench/checkpoints.ts). The event loop still gets its turn every few milliseconds, so the panel
// stays responsive; large files go through the asynchronous calls, in chunks.

export class CheckpointScanError extends Error {
  override name = 'CheckpointScanError';
}

/** Files up to this size are read and stored synchronously. */
const SYNC_BYTES = 256 * 1024;
/** Synchronous work runs at most this long before the event loop gets a turn. */
const SLICE_MS = 8;
let sliceStart = performance.now();

// O_NOFOLLOW: a file swapped for a link after the listing is refused, never followed.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Stores the bytes of file `name` of `folder` and returns their hash; with 'hash only' (a file
 * over the size limit) it returns the hash without storing anything. Throws a CheckpointScanError
 * naming the file and what to do. `giveWay` is awaited where the event loop gets its turn.
 */
export async function readAndStore(
  store: ObjectStore,
  folder: VerifiedFolder,
  name: string,
  relative: string,
  size: number | 'hash only',
  giveWay?: () => Promise<void>,
): Promise<string> {
  if (size !== 'hash only' && size <= SYNC_BYTES) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      await giveWay?.();
      sliceStart = performance.now();
    }
    const data = readWholeFile(folder.entry(name), relative);
    const hash = hashOf(data);
    if (store.gather(data, hash) !== null) {
      await store.settle().catch((error: unknown) => {
        throw unstorable(store, relative, error);
      });
      return hash;
    }
    return store.put(data, hash).catch((error: unknown) => {
      throw unstorable(store, relative, error);
    });
  }
  let data: Buffer;
  try {
    const handle = await open(folder.entry(name), READ_FLAGS);
    try {
      if (size === 'hash only') return await hashStream(handle);
      data = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(relative, error);
  }
  return store.put(data, hashOf(data)).catch((error: unknown) => {
    throw unstorable(store, relative, error);
  });
}

async function hashStream(handle: FileHandle): Promise<string> {
  const digest = createHash('sha256');
  for await (const chunk of handle.createReadStream({ autoClose: false })) digest.update(chunk as Buffer);
  return digest.digest('hex');
}

/** A regular file's bytes, read without following a link at its name; a failure names `relative`. */
export function readWholeFile(absolute: string, relative: string): Buffer {
  try {
    const fd = openSync(absolute, READ_FLAGS);
    try {
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw unreadable(relative, error);
  }
}

export function unreadable(relative: string, error: unknown): CheckpointScanError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CheckpointScanError(
    `The checkpoint could not be made: ${relative} could not be read (${reason}). ` +
      'Make it readable, add it to .gitignore, or turn checkpoints off in Settings.',
  );
}

export function unstorable(store: ObjectStore, relative: string, error: unknown): CheckpointScanError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CheckpointScanError(
    `The checkpoint could not be made: ${relative} could not be stored in ${store.folder} (${reason}). ` +
      'Free some disk space (or lower the checkpoint storage limit in Settings), or turn checkpoints off.',
  );
}
