import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { DEFAULT_MAX_EDIT_FILE_MIB } from '../../../protocol/settings.ts';
import { identityOf, type FileIdentity } from './atomic-write.ts';
import { openForReading } from './file-content.ts';
import { ToolError } from '../tool.ts';

// Reading a file that is about to be rewritten (write_file, patch_file): its size is checked on
// the open descriptor before a byte is read, so a huge file is refused at once and in constant
// memory, and the version read is remembered (FileIdentity) so the write can tell whether another
// program changed the file meanwhile.

export const MIB = 1024 * 1024;
/** The largest file write_file and patch_file read whole, unless the settings say otherwise (max_edit_file_mib). */
export const DEFAULT_MAX_EDIT_BYTES = DEFAULT_MAX_EDIT_FILE_MIB * MIB;
/** The highest the setting goes, in MiB: Node reads no file over 2 GiB whole. */
export { MAX_EDIT_FILE_MIB } from '../../../protocol/settings.ts';

/** What write_file and patch_file are made with: the edit limit, read at each call so a settings change applies to the next. */
export interface EditLimitOptions {
  /** The largest file they read whole, in bytes (the max_edit_file_mib setting); default DEFAULT_MAX_EDIT_BYTES. */
  maxEditBytes?: () => number | Promise<number>;
}

export async function editLimit(options: EditLimitOptions): Promise<number> {
  return (await options.maxEditBytes?.()) ?? DEFAULT_MAX_EDIT_BYTES;
}

const HASH_CHUNK_BYTES = 1024 * 1024;

export interface FileVersion {
  bytes: Buffer;
  identity: FileIdentity;
}

/** The whole file and which version of it this is; refused over `maxBytes` before reading. */
export async function readVersion(real: string, shown: string, maxBytes: number, tool: string): Promise<FileVersion> {
  const { handle } = await openForReading(real, shown);
  try {
    const stats = await handle.stat({ bigint: true });
    refuseOverLimit(stats.size, maxBytes, shown, tool);
    return { bytes: await readWhole(handle, Number(stats.size)), identity: identityOf(stats) };
  } finally {
    await handle.close();
  }
}

/**
 * The file's `size` bytes in one read where the system allows (FileHandle.readFile reads 512 KiB
 * at a time); fewer when it was cut short meanwhile (the write's version check then refuses).
 */
async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

/**
 * The sha256 of the file there now and which version it is, or null when there is none. Streamed
 * in bounded chunks; refused over `maxBytes` before reading.
 */
export async function hashVersion(
  real: string,
  shown: string,
  maxBytes: number,
  tool: string,
): Promise<{ sha256: string; identity: FileIdentity } | null> {
  let handle: FileHandle;
  try {
    ({ handle } = await openForReading(real, shown));
  } catch (error) {
    if (error instanceof ToolError && /does not exist/.test(error.message)) return null;
    throw error;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    refuseOverLimit(stats.size, maxBytes, shown, tool);
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return { sha256: hash.digest('hex'), identity: identityOf(stats) };
  } finally {
    await handle.close();
  }
}

function refuseOverLimit(size: bigint, maxBytes: number, shown: string, tool: string): void {
  if (size <= BigInt(maxBytes)) return;
  throw new ToolError(
    `${shown} is ${sizeText(Number(size))}, over the ${sizeText(maxBytes)} limit of files ${tool} reads whole ` +
      '(the "Largest file to edit" setting, max_edit_file_mib). Nothing was read or written. Change it in place with ' +
      'exec instead (for example sed -i, or a short script), or raise the limit in Settings.',
  );
}

/** Bytes as a person reads them: 64 MiB, 1.9 GiB. */
export function sizeText(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}
