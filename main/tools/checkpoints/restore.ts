import { rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { openFolder } from '../files/confined-fs.ts';
import type { ObjectStore, TreeEntry } from './object-store.ts';

// Bringing the workspace from one checkpoint's trees to another's. The plan compares trees and
// descends only where a folder's hash differs, so a rewind over a one-file change reads a handful
// of trees. Every change goes through verified folders (confined-fs.ts) and atomic writes, so a
// folder swapped for a link cannot send a restored file out of the workspace.

export interface RestorePlan {
  /** Entries to remove, children before their folder. */
  removals: { path: string; entry: TreeEntry }[];
  /** Entries to write, folders before their children. */
  writes: { path: string; entry: TreeEntry }[];
}

export interface RestoreReport {
  /** Files, links and folders written (created or replaced). */
  written: string[];
  removed: string[];
  /** Files over the size limit whose recorded bytes cannot be brought back; left as they are. */
  notRestorable: string[];
}

export async function planRestore(store: ObjectStore, current: string, target: string): Promise<RestorePlan> {
  const plan: RestorePlan = { removals: [], writes: [] };
  await compareTrees(store, current, target, '', plan);
  return plan;
}

async function compareTrees(
  store: ObjectStore,
  from: string | null,
  to: string | null,
  prefix: string,
  plan: RestorePlan,
): Promise<void> {
  if (from === to) return;
  const before = new Map((from === null ? [] : await store.readTree(from)).map((entry) => [entry.name, entry]));
  const after = new Map((to === null ? [] : await store.readTree(to)).map((entry) => [entry.name, entry]));
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name);
    const now = after.get(name);
    const at = prefix ? `${prefix}/${name}` : name;
    if (was?.kind === 'dir' && now?.kind === 'dir') {
      await compareTrees(store, was.hash, now.hash, at, plan);
      continue;
    }
    if (was && now && sameEntry(was, now)) continue;
    // Same kind: replaced in place (an atomic write, a link swapped), never removed first.
    if (was && was.kind !== now?.kind) {
      if (was.kind === 'dir') await compareTrees(store, was.hash, null, at, plan);
      plan.removals.push({ path: at, entry: was });
    }
    if (now) {
      plan.writes.push({ path: at, entry: now });
      if (now.kind === 'dir') await compareTrees(store, null, now.hash, at, plan);
    }
  }
}

function sameEntry(a: TreeEntry, b: TreeEntry): boolean {
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  if ((a.kind === 'file' || a.kind === 'large') && a.kind === b.kind) return a.hash === b.hash && a.mode === b.mode;
  return false;
}

export async function applyRestore(store: ObjectStore, workspace: string, plan: RestorePlan): Promise<RestoreReport> {
  const report: RestoreReport = { written: [], removed: [], notRestorable: [] };
  for (const { path: relative, entry } of plan.removals) {
    // A large file's bytes are not in the store: removing it could never be undone, so it stays.
    if (entry.kind === 'large') {
      report.notRestorable.push(relative);
      continue;
    }
    if (await removeEntry(workspace, relative, entry)) report.removed.push(relative);
  }
  for (const { path: relative, entry } of plan.writes) {
    const absolute = path.join(workspace, relative);
    if (entry.kind === 'large') {
      report.notRestorable.push(relative);
      continue;
    }
    if (entry.kind === 'dir') {
      await (await openFolder(absolute, relative, { create: { root: workspace } })).close();
    } else if (entry.kind === 'file') {
      const data = await store.read(entry.hash);
      await writeFileAtomic(absolute, data, { mode: entry.mode, createFoldersWithin: workspace, shown: relative });
    } else {
      const folder = await openFolder(path.dirname(absolute), relative, { create: { root: workspace } });
      try {
        const name = path.basename(absolute);
        await unlink(folder.entry(name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        await symlink(entry.target, folder.entry(name));
      } finally {
        await folder.close();
      }
    }
    report.written.push(relative);
  }
  return report;
}

async function removeEntry(workspace: string, relative: string, entry: TreeEntry): Promise<boolean> {
  const folder = await openFolder(path.dirname(path.join(workspace, relative)), relative).catch(() => null);
  if (!folder) return false; // Its folder is gone already.
  try {
    const name = path.basename(relative);
    const remove = entry.kind === 'dir' ? rmdir : unlink;
    return await remove(folder.entry(name)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        // A folder still holding ignored files (build output, say) keeps them and stays.
        if (error.code === 'ENOENT' || error.code === 'ENOTEMPTY' || error.code === 'EEXIST') return false;
        throw error;
      },
    );
  } finally {
    await folder.close();
  }
}
