import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tool.ts';

// Use-time confinement. The registry checks a path when the call arrives; by the time the tool
// touches it (after an approval wait, say) a folder on the way may have been swapped for a link
// to the outside. Node has no openat, so every open here refuses a link as the last component
// (O_NOFOLLOW), then asks the kernel where the opened descriptor really is and refuses it unless
// it is exactly the confined path — before a byte is read or written. Entries of an opened folder
// (a temp file, a rename, a new subfolder) are named through that folder's descriptor, so they
// land in the very folder that was verified, whatever happens to its path meanwhile.
//
// Linux: /proc/self/fd/N is the kernel's own record of what descriptor N is, and a path through
// /proc/self/fd/N/ is resolved from that folder (openat's semantics): both hold against any race.
// Elsewhere (macOS, Windows) Node cannot ask where a descriptor is: the check compares the
// descriptor's device and inode with those of the path's real path just after opening, which
// narrows the window to microseconds but does not close it, and entries are named by path.

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** True where the kernel names descriptors (/proc/self/fd): the checks are exact, not narrowed. */
export const EXACT_FD_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A path changed between the confinement check and its use (a race, or a link swapped in). */
export class PathChangedError extends ToolError {
  override name = 'PathChangedError';
}

/**
 * Opens `real` (a confined real path: no links in it when it was checked) with `flags` plus
 * O_NOFOLLOW, and returns the handle only if it really is `real`. `shown` names it in errors.
 */
export async function openVerified(real: string, flags: number, shown: string, mode?: number): Promise<FileHandle> {
  const handle = await open(real, flags | O_NOFOLLOW, mode);
  try {
    await verifyOpened(handle, real, shown);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** Refuses a descriptor that is not at `expected` (a folder on its path was swapped or moved). */
export async function verifyOpened(handle: FileHandle, expected: string, shown: string): Promise<void> {
  const actual = await whereIs(handle, expected);
  if (actual !== expected) throw changed(shown, actual);
}

/** Where an open descriptor is now: exact on Linux, `expected` when its real path is the same file elsewhere. */
export async function whereIs(handle: FileHandle, expected: string): Promise<string> {
  if (EXACT_FD_PATHS) return readlink(`/proc/self/fd/${handle.fd}`);
  const [opened, real] = await Promise.all([handle.stat(), realpath(expected).catch(() => null)]);
  if (real === null) return '(no longer there)';
  const named = await stat(real).catch(() => null);
  const same = named !== null && named.dev === opened.dev && named.ino === opened.ino;
  return same ? real : `(another file than ${real})`;
}

function changed(shown: string, actual: string): PathChangedError {
  return new PathChangedError(
    `Refused: ${shown} changed while in use — a folder on its path was replaced or moved (it now leads to ${actual}). ` +
      'Nothing was read or written through it. Try again; if it keeps happening, something is rewriting that folder.',
  );
}

/** An open folder verified to be at `real`; its entries are named through its descriptor. */
export class VerifiedFolder {
  readonly handle: FileHandle;
  readonly real: string;

  constructor(handle: FileHandle, real: string) {
    this.handle = handle;
    this.real = real;
  }

  /** A path to the entry `name` of this very folder (openat's, on Linux). */
  entry(name: string): string {
    return EXACT_FD_PATHS ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.real, name);
  }

  /** The folder itself, for readdir. */
  self(): string {
    return EXACT_FD_PATHS ? `/proc/self/fd/${this.handle.fd}` : this.real;
  }

  /** The real path `name` has in this folder. */
  realOf(name: string): string {
    return path.join(this.real, name);
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

const FOLDER_FLAGS = constants.O_RDONLY | O_DIRECTORY;

/**
 * Opens the folder at `real`, verified. With `create`, missing folders are made one at a time,
 * each inside its verified parent (never `mkdir -p` by path), down from `root` at the highest.
 */
export async function openFolder(
  real: string,
  shown: string,
  options: { create?: { root: string } } = {},
): Promise<VerifiedFolder> {
  try {
    return new VerifiedFolder(await openVerified(real, FOLDER_FLAGS, shown), real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const root = options.create?.root;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw await notFolder(shown, real);
    if (code !== 'ENOENT' || root === undefined || real === root || path.dirname(real) === real) throw error;
  }
  const parent = await openFolder(path.dirname(real), shown, options);
  try {
    const name = path.basename(real);
    await mkdir(parent.entry(name), 0o777).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    // Opened through the parent's descriptor and O_NOFOLLOW: a link put in its place is refused.
    const handle = await open(parent.entry(name), FOLDER_FLAGS | O_NOFOLLOW).catch(
      async (error: NodeJS.ErrnoException) => {
        throw error.code === 'ELOOP' || error.code === 'ENOTDIR' ? await notFolder(shown, real) : error;
      },
    );
    try {
      await verifyOpened(handle, real, shown);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new VerifiedFolder(handle, real);
  } finally {
    await parent.close();
  }
}

/** Why a folder would not open as one: it became a link (a race), or it is something else. */
async function notFolder(shown: string, real: string): Promise<ToolError> {
  const link = (await lstat(real).catch(() => null))?.isSymbolicLink() ?? false;
  return link
    ? new PathChangedError(
        `Refused: the folder ${real} on the way to ${shown} became a symbolic link after it was checked. ` +
          'Nothing was read or written through it. Try again.',
      )
    : new ToolError(`Cannot use ${shown}: ${real} is not a folder. Choose a path whose folders exist as folders.`);
}
