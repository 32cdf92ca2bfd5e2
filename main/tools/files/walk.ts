import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Ignore } from 'ignore';
import { isInside } from '../workspace.ts';
import { openFolder, type VerifiedFolder } from './confined-fs.ts';
import { sharedIgnoreRules, type IgnoreRules } from './ignore-rules.ts';

// The folder walk list_dir and search_files share: breadth first (shallow entries before deep
// ones, so a limit keeps the overview), names sorted within a folder, `.git` skipped, and every
// `.gitignore` on the way honoured, nested ones relative to their own folder as git reads them.
// Symbolic links are reported, never followed: a link may point outside the workspace. Each folder
// is opened and verified before it is listed, so one swapped for a link mid-walk is skipped.

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  /** Relative to the walk's start, `/`-separated. */
  path: string;
  absolute: string;
  kind: EntryKind;
  /** 1 for the start folder's own entries. */
  depth: number;
  /** Bytes, for a file when `sizes` was asked for. */
  size?: number;
}

export interface WalkOptions {
  /** The workspace root (real path): `.gitignore` files between it and the start apply too. */
  workspace: string;
  /** Deepest level to list; 1 lists the start folder's own entries only. */
  maxDepth: number;
  signal?: AbortSignal;
  /** Report each file's size (one lstat per file, through its verified folder). */
  sizes?: boolean;
  /** Where `.gitignore` rules are kept between walks (default: the thread's shared cache). */
  ignoreRules?: IgnoreRules;
}

export interface IgnoreLayer {
  folder: string;
  rules: Ignore;
}

interface PendingFolder {
  absolute: string;
  relative: string;
  depth: number;
  layers: IgnoreLayer[];
}

export async function* walk(start: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const rules = options.ignoreRules ?? sharedIgnoreRules;
  let level: PendingFolder[] = [
    { absolute: start, relative: '', depth: 1, layers: await inheritedLayers(start, options.workspace, rules) },
  ];
  while (level.length > 0) {
    const next: PendingFolder[] = [];
    for (const folder of level) {
      options.signal?.throwIfAborted();
      // Opened and verified first, then listed through its descriptor: a folder swapped for a link
      // to the outside mid-walk is skipped, never listed (confined-fs.ts); the start folder itself
      // is an error the caller reports.
      const opened = await openFolder(folder.absolute, folder.relative || '.').catch((error: unknown) => {
        if (folder.relative === '') throw error;
        return null;
      });
      if (!opened) continue;
      try {
        const entries = await readdir(opened.self(), { withFileTypes: true }).catch(() => [] as Dirent[]);
        const hasRules = entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
        const layers = hasRules ? await withLayer(folder.layers, opened, rules) : folder.layers;
        entries.sort((a, b) => compareNames(a.name, b.name));
        for (const entry of entries) {
          if (entry.name === '.git') continue;
          const kind = kindOf(entry);
          const absolute = path.join(folder.absolute, entry.name);
          if (isIgnored(layers, absolute, kind === 'dir')) continue;
          const relative = folder.relative ? `${folder.relative}/${entry.name}` : entry.name;
          const size =
            kind === 'file' && options.sizes
              ? (await lstat(opened.entry(entry.name)).catch(() => null))?.size
              : undefined;
          yield { path: relative, absolute, kind, depth: folder.depth, ...(size === undefined ? {} : { size }) };
          if (kind === 'dir' && folder.depth < options.maxDepth)
            next.push({ absolute, relative, depth: folder.depth + 1, layers });
        }
      } finally {
        await opened.close();
      }
    }
    level = next;
  }
}

/** Case-insensitive order, with a stable tie-break so the order never depends on the file system. */
export function compareNames(a: string, b: string): number {
  const folded = a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
  return folded !== 0 ? folded : a < b ? -1 : a > b ? 1 : 0;
}

function kindOf(entry: Dirent): EntryKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  return 'other';
}

/**
 * The `.gitignore` files of the folders from the workspace root down to (not including) the start.
 * When the start is itself ignored it was asked for by name, so those rules are dropped.
 */
async function inheritedLayers(start: string, workspace: string, rules: IgnoreRules): Promise<IgnoreLayer[]> {
  if (start === workspace || !isInside(workspace, start)) return [];
  const folders: string[] = [];
  for (let folder = path.dirname(start); isInside(workspace, folder); folder = path.dirname(folder)) {
    folders.unshift(folder);
    if (folder === workspace) break;
  }
  let layers: IgnoreLayer[] = [];
  for (const folder of folders) {
    const opened = await openFolder(folder, folder).catch(() => null);
    if (!opened) continue;
    try {
      layers = await withLayer(layers, opened, rules);
    } finally {
      await opened.close();
    }
  }
  return isIgnored(layers, start, true) ? [] : layers;
}

/** The layers with the folder's `.gitignore` rules added, when it has any (kept in `rules` between walks). */
export async function withLayer(
  layers: IgnoreLayer[],
  folder: VerifiedFolder,
  rules: IgnoreRules = sharedIgnoreRules,
): Promise<IgnoreLayer[]> {
  const own = await rules.of(folder);
  return own === null ? layers : [...layers, { folder: folder.real, rules: own }];
}

/** The deepest rule that speaks about the path wins, as in git. */
export function isIgnored(layers: readonly IgnoreLayer[], absolute: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const relative = path.relative(layer.folder, absolute).split(path.sep).join('/');
    if (relative === '' || relative === '..' || relative.startsWith('../../')) continue;
    const verdict = layer.rules.test(isDir ? `${relative}/` : relative);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}
