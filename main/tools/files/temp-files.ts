import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openFolder, type VerifiedFolder } from './confined-fs.ts';
import { walk } from './walk.ts';

// The temp files of atomic writes are named after their writer, `.<name>.aether-<pid>-<rand>.tmp`,
// so one left by a writer that was killed (SIGKILL, power loss) can be told from a live one and
// from the person's own files. Stale ones are swept on the next write to their folder, and at
// start in a bounded walk of the workspace.

const TEMP_NAME = /^\..*\.aether-(\d+)-[0-9a-f]{8}\.tmp$/s;
/** A live writer's temp file is older than this only when its pid was reused: the writer is gone. */
export const STALE_AFTER_MS = 60 * 60 * 1000;
/** The start sweep looks into at most this many folders (the rest are swept when next written to). */
export const START_SWEEP_FOLDERS = 2000;

/** This process's temp files still being written, by real path. */
const inFlight = new Set<string>();

/** The temp file's name for `target`: hidden, beside it, short enough for any file-name limit. */
export function tempNameFor(target: string): string {
  const base = path.basename(target).slice(0, 100);
  return `.${base}.aether-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}

/** Marks a temp file (real path) as being written by this process until `release` is called. */
export function holdTemp(real: string): () => void {
  inFlight.add(real);
  return () => inFlight.delete(real);
}

/** The writer pid a temp file name carries, or null for a name that is not one of ours. */
export function tempWriter(name: string): number | null {
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[1]) : null;
}

/**
 * Removes the stale temp files of one verified folder: those of a writer that is no longer
 * running, this process's own that no write holds, and any older than STALE_AFTER_MS. Returns
 * the names removed. Never throws: sweeping is housekeeping, the write it precedes goes on.
 */
export async function sweepFolder(folder: VerifiedFolder, now = Date.now()): Promise<string[]> {
  const names = await readdir(folder.self()).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = tempWriter(name);
    if (pid === null) continue;
    const entry = folder.entry(name);
    const stat = await lstat(entry).catch(() => null);
    if (!stat?.isFile()) continue;
    const stale =
      pid === process.pid ? !inFlight.has(folder.realOf(name)) : !isRunning(pid) || now - stat.mtimeMs > STALE_AFTER_MS;
    if (!stale) continue;
    if (
      await unlink(entry).then(
        () => true,
        () => false,
      )
    )
      removed.push(name);
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The start sweep: the workspace root and its folders (`.gitignore`d ones and `.git` left out), at
 * most START_SWEEP_FOLDERS of them, shallow first. Returns the workspace-relative paths removed.
 */
export async function sweepWorkspace(workspace: string, signal?: AbortSignal): Promise<string[]> {
  const removed: string[] = [];
  const sweep = async (real: string, relative: string): Promise<void> => {
    const folder = await openFolder(real, relative || '.').catch(() => null);
    if (!folder) return;
    try {
      for (const name of await sweepFolder(folder)) removed.push(relative ? `${relative}/${name}` : name);
    } finally {
      await folder.close();
    }
  };
  await sweep(workspace, '');
  let folders = 1;
  for await (const entry of walk(workspace, {
    workspace,
    maxDepth: Number.POSITIVE_INFINITY,
    ...(signal ? { signal } : {}),
  })) {
    if (entry.kind !== 'dir') continue;
    if (folders === START_SWEEP_FOLDERS) break;
    folders += 1;
    await sweep(entry.absolute, entry.path);
  }
  return removed;
}
