import { closeSync, constants, fstatSync, openSync, renameSync, type BigIntStats } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { openFolder, verifyOpened, type VerifiedFolder } from './confined-fs.ts';
import { carryNow, CutShortError, holdReplaced, keyOf, NotPlacedError, watchLateAppends } from './late-appends.ts';
import { holdTemp, sweepFolder, tempNameFor } from './temp-files.ts';
import { ToolError } from '../tool.ts';

// Atomic replacement: write a temp file beside the target, fsync it, rename it over the target.
// A reader sees the old file or the new one, never half of either; a failure leaves the target
// as it was and removes the temp file. The folder is opened and verified first, and the temp file
// is created, renamed and checked through its descriptor (confined-fs.ts), so a folder swapped for
// a link mid-write cannot send the file elsewhere. Just before the rename the target is compared
// with what the caller read, so a change made meanwhile by another program is never overwritten;
// what another program appends to the replaced file during and shortly after the rename is carried
// over to the end of the new one (late-appends.ts).

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** What identifies one version of a file: a write or a rename changes at least one of these. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export function identityOf(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
}

export interface AtomicWriteOptions {
  /** Permission bits of the new file; default: the existing file's, else 0o666 less the umask. */
  mode?: number;
  /**
   * What the target must still be just before the rename: the version the caller read, or null
   * for "no file there". Anything else throws FileChangedError and leaves the target alone.
   */
  expect?: FileIdentity | null;
  /** Create missing folders, one at a time, inside this root (the workspace). */
  createFoldersWithin?: string;
  /** How the target is named in errors. */
  shown?: string;
  /**
   * Work to do while the new bytes are being flushed to disk (a diff, a hash of `data`): it runs
   * in this thread while the fsync waits on the disk, so its time hides in the flush's. Called
   * once, before the rename; it must not throw.
   */
  whileSyncing?: () => void;
}

/** The target changed between the caller's read and the rename; nothing was written. */
export class FileChangedError extends Error {
  override name = 'FileChangedError';
}

/**
 * Writes `data` (one buffer, or pieces one after another) to `target` atomically. Returns what
 * another program appended to the replaced file during the rename and was carried over to the end
 * of the new one (usually nothing); with `expect`, what reaches the replaced file in the next
 * GRACE_MS is carried over too, later.
 */
export async function writeFileAtomic(
  target: string,
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<Buffer> {
  const shown = options.shown ?? target;
  const name = path.basename(target);
  const folder = await openFolder(path.dirname(target), shown, {
    ...(options.createFoldersWithin === undefined ? {} : { create: { root: options.createFoldersWithin } }),
  });
  try {
    await sweepFolder(folder);
    return await replaceIn(folder, name, data, options, shown);
  } finally {
    await folder.close();
  }
}

async function replaceIn(
  folder: VerifiedFolder,
  name: string,
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions,
  shown: string,
): Promise<Buffer> {
  const temp = tempNameFor(name);
  const release = holdTemp(folder.realOf(temp));
  let handle: FileHandle | undefined;
  let replaced: ReplacedFile | undefined;
  try {
    const mode = options.mode ?? (await existingMode(folder.entry(name)));
    // O_APPEND: the descriptor stays open after the rename to carry late appends (late-appends.ts),
    // and an append through it never overwrites one another program makes at the same time.
    handle = await open(
      folder.entry(temp),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
      0o666,
    );
    await verifyOpened(handle, folder.realOf(temp), shown);
    // The open mode is filtered by the umask; an existing file's bits are restored exactly.
    if (mode !== undefined) await handle.chmod(mode);
    await writeAll(handle, data);
    const syncing = handle.sync();
    options.whileSyncing?.();
    await syncing;
    if (options.expect === undefined) {
      await handle.close();
      handle = undefined;
    }
    // The comparison and the rename run back to back, with no await between them, so the window
    // in which another program's change could still be replaced is a few system calls wide.
    if (options.expect !== undefined) {
      replaced = openReplaced(folder.entry(name));
      if (!sameVersion(options.expect, replaced?.checked))
        throw new FileChangedError(`${shown} changed while it was being written.`);
    }
    renameSync(folder.entry(temp), folder.entry(name));
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(folder.entry(temp)).catch(() => undefined);
    if (replaced) closeReplaced(replaced);
    throw error;
  } finally {
    release();
  }
  try {
    await settle(folder, shown);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (replaced) closeReplaced(replaced);
    throw error;
  }
  if (!handle || !replaced) {
    await handle?.close();
    return Buffer.alloc(0);
  }
  return carryLateAppends({ ...replaced, into: handle }, folder.realOf(name), shown);
}

/** The file about to be replaced, held open so that what reaches it during the rename is not lost. */
interface ReplacedFile {
  fd: number;
  checked: BigIntStats;
  /** Marks it as held by this process (late-appends.ts): a carry into it is carried on. */
  release: () => void;
}

function openReplaced(entry: string): ReplacedFile | undefined {
  let fd: number;
  try {
    fd = openSync(entry, constants.O_RDONLY | constants.O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const checked = fstatSync(fd, { bigint: true });
  return { fd, checked, release: holdReplaced(keyOf(checked)) };
}

function closeReplaced(replaced: ReplacedFile): void {
  replaced.release();
  closeSync(replaced.fd);
}

/**
 * A program that opened the old file just before the rename (`echo … >> log`) may still write to
 * it just after. Once the rename is durable, whatever the old file gained past the size it was
 * checked at is appended to the new one (through the new file's own descriptor), now and for a
 * grace period after (late-appends.ts), so an appended line is not lost; a change inside the old
 * contents cannot be carried over, and is reported. Returns the bytes carried now.
 */
function carryLateAppends(replaced: ReplacedFile & { into: FileHandle }, real: string, shown: string): Buffer {
  const carry = { replaced: replaced.fd, from: replaced.checked.size, into: replaced.into, real, shown };
  const tail: Buffer[] = [];
  try {
    carryNow(carry, tail);
  } catch (error) {
    closeReplaced(replaced);
    void replaced.into.close().catch(() => undefined);
    if (error instanceof NotPlacedError) throw new ToolError(`${shown} was written, but ${error.message}.`);
    if (!(error instanceof CutShortError)) throw error;
    throw new ToolError(
      `${shown} was written, but another program cut the previous version short while it was being replaced; ` +
        'check that its contents are what you expect.',
    );
  }
  watchLateAppends(carry, replaced.release);
  return Buffer.concat(tail);
}

/** After the rename: the folder must still be where it was checked, and the rename made durable. */
async function settle(folder: VerifiedFolder, shown: string): Promise<void> {
  try {
    await verifyOpened(folder.handle, folder.real, shown);
  } catch (error) {
    throw new ToolError(
      `${shown} was written, but its folder was moved while it was being written: ${(error as Error).message}`,
    );
  }
  // Some file systems refuse to fsync a folder; the data itself is already synced.
  await folder.handle.sync().catch(() => undefined);
}

function sameVersion(expected: FileIdentity | null, now: BigIntStats | undefined): boolean {
  if (expected === null || now === undefined) return expected === null && now === undefined;
  const seen = identityOf(now);
  return (Object.keys(expected) as (keyof FileIdentity)[]).every((key) => expected[key] === seen[key]);
}

async function existingMode(entry: string): Promise<number | undefined> {
  const stats = await lstat(entry).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  return stats?.isFile() ? stats.mode & 0o7777 : undefined;
}

/** The most buffers one writev takes (Linux's IOV_MAX). */
const MAX_PIECES = 1024;

/**
 * `data` (one buffer, or pieces written one after another) through one writev per 1 024 pieces,
 * not FileHandle.writeFile's one write per 512 KiB; a short write goes on where it stopped.
 */
async function writeAll(handle: FileHandle, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
  const pieces = (data instanceof Uint8Array ? [data] : data).filter((piece) => piece.byteLength > 0);
  let next = 0;
  while (next < pieces.length) {
    const batch = pieces.slice(next, next + MAX_PIECES);
    let { bytesWritten } = await handle.writev(batch);
    if (bytesWritten === 0) throw new Error('the disk took none of the bytes written to it');
    for (const piece of batch) {
      if (bytesWritten < piece.byteLength) {
        // Partly written: the rest of this piece comes first in the next writev.
        pieces[next] = piece.subarray(bytesWritten);
        break;
      }
      bytesWritten -= piece.byteLength;
      next += 1;
    }
  }
}
