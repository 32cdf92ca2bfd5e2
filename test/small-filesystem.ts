import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A real, tiny file system (tmpfs) for tests of what happens when the disk is full. Mounting needs
// root (or CAP_SYS_ADMIN); where that is impossible the caller skips with the reason given here.

const run = promisify(execFile);

export interface SmallFilesystem {
  dir: string;
  unmount(): Promise<void>;
}

export async function mountSmallFilesystem(
  sizeBytes: number,
): Promise<{ ok: true; fs: SmallFilesystem } | { ok: false; reason: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aether-smallfs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    return { ok: false, reason: `cannot mount a ${sizeBytes}-byte tmpfs here (needs root): ${detail}` };
  }
  return {
    ok: true,
    fs: {
      dir,
      unmount: async () => {
        await run('umount', [dir]);
        await rm(dir, { recursive: true, force: true });
      },
    },
  };
}

/** Fills the file system, then frees one page: the next long write is taken only in part. */
export async function fillAllButOnePage(dir: string): Promise<string> {
  const filler = path.join(dir, 'filler');
  const handle = await open(filler, 'w');
  const block = Buffer.alloc(64 * 1024, 0x61);
  try {
    for (;;) await handle.write(block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
  const { size } = await stat(filler);
  await truncate(filler, size - 4096);
  return filler;
}
