import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
