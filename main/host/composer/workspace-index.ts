import { lstat } from 'node:fs/promises';
import path from 'node:path';
import fuzzysort, { type Prepared } from 'fuzzysort';
import { MENTION_MATCH_LIMIT, type FileMatch, type FileMatches, type MentionKind } from '../../../protocol/composer.ts';
import { walk } from '../../agent/workspace-files.ts';

// The names of the workspace's files and folders, for the composer's `@` picker: walked once (the
// walk list_dir uses: `.gitignore` honoured, `.git` skipped, links not followed) and then kept up
// to date cheaply. A folder's mtime changes whenever an entry is added, removed or renamed in it,
// so a staleness check is one lstat per indexed folder; only the folders that changed are listed
// again (a new subfolder walked whole, a removed one dropped with everything under it). A changed
// `.gitignore` re-walks everything, since it can hide or reveal anything below it.

export interface WorkspaceIndexOptions {
  /** The workspace root, real path. */
  workspace: string;
  /** Entries kept at most; past it the walk stops and `capped` says so. Default 200 000. */
  maxEntries?: number;
  /** How long a check stays good, in ms: queries closer together than this trust the index. Default 1500. */
  staleAfterMs?: number;
  now?: () => number;
}

/** One file or folder, with what the matcher precomputes from its path. */
export interface IndexedPath {
  path: string;
  kind: MentionKind;
  prepared: Prepared;
}

type Entry = IndexedPath;

export function indexedPath(relative: string, kind: MentionKind): IndexedPath {
  return { path: relative, kind, prepared: fuzzysort.prepare(relative) };
}

/** The best `limit` fuzzy matches of `query` over the whole relative paths, best first; an empty query lists the top of the tree. */
export function matchPaths(list: readonly IndexedPath[], query: string, limit: number): FileMatch[] {
  const trimmed = query.trim();
  if (trimmed === '') {
    return list
      .filter((entry) => !entry.path.includes('/'))
      .slice(0, limit)
      .map((entry) => ({ path: entry.path, kind: entry.kind, indexes: [] }));
  }
  const results = fuzzysort.go(trimmed, list, { key: (entry) => entry.prepared, limit, threshold: 0 });
  return results.map((result) => ({ path: result.obj.path, kind: result.obj.kind, indexes: [...result.indexes] }));
}

const STAT_BATCH = 256;

export class WorkspaceIndex {
  private readonly workspace: string;
  private readonly maxEntries: number;
  private readonly staleAfterMs: number;
  private readonly now: () => number;
  private entries = new Map<string, Entry>();
  /** Each indexed folder's children ('' is the root). */
  private children = new Map<string, Set<string>>();
  /** mtime of each indexed folder and each `.gitignore`, as last seen. */
  private mtimes = new Map<string, number>();
  private list: Entry[] | null = null;
  private capped = false;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | null = null;

  constructor(options: WorkspaceIndexOptions) {
    this.workspace = options.workspace;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.staleAfterMs = options.staleAfterMs ?? 1500;
    this.now = options.now ?? Date.now;
  }

  /** The best matches for `query` (fuzzy, over the whole relative path); an empty query lists the top of the tree. */
  async find(query: string, limit = MENTION_MATCH_LIMIT): Promise<FileMatches> {
    await this.refresh();
    const list = this.entryList();
    return { matches: matchPaths(list, query, limit), indexed: list.length, capped: this.capped };
  }

  /** Builds the index the first time; after that, brings it up to date if the last check is older than `staleAfterMs`. */
  refresh(force = false): Promise<void> {
    if (this.pending) return this.pending;
    if (!force && this.now() - this.checkedAt < this.staleAfterMs) return Promise.resolve();
    const work = (this.checkedAt === Number.NEGATIVE_INFINITY ? this.rebuild() : this.update()).finally(() => {
      this.checkedAt = this.now();
      this.pending = null;
    });
    this.pending = work;
    return work;
  }

  private entryList(): Entry[] {
    this.list ??= [...this.entries.values()];
    return this.list;
  }

  private async rebuild(): Promise<void> {
    this.entries = new Map();
    this.children = new Map([['', new Set()]]);
    this.mtimes = new Map();
    this.list = null;
    this.capped = false;
    await this.addTree('');
    await this.recordMtimes([...this.children.keys(), ...this.ignoreFiles()]);
  }

  /** Lists the folders (and `.gitignore` files) whose mtime changed since they were last seen. */
  private async update(): Promise<void> {
    const seen = [...this.mtimes.keys()];
    const now = await this.mtimesOf(seen);
    const changed = seen.filter((relative) => now.get(relative) !== this.mtimes.get(relative));
    if (changed.length === 0) return;
    if (changed.some(isIgnoreFile)) return this.rebuild();
    // Shallow folders first: a folder removed with its parent is gone by the time its turn comes.
    changed.sort((a, b) => depthOf(a) - depthOf(b));
    for (const folder of changed) {
      if (!this.children.has(folder)) continue;
      if (now.get(folder) === undefined) {
        this.remove(folder);
        continue;
      }
      if (await this.relist(folder)) return this.rebuild();
    }
    this.list = null;
  }

  /** Lists one folder again; true when a `.gitignore` appeared in it (everything must be walked again). */
  private async relist(folder: string): Promise<boolean> {
    const before = this.children.get(folder) ?? new Set<string>();
    const after = new Map<string, MentionKind>();
    let newIgnore = false;
    try {
      for await (const entry of walk(this.absolute(folder), { workspace: this.workspace, maxDepth: 1 })) {
        const relative = join(folder, entry.path);
        if (isIgnoreFile(relative) && !this.mtimes.has(relative)) newIgnore = true;
        if (entry.kind === 'file' || entry.kind === 'dir') after.set(relative, entry.kind);
      }
    } catch {
      // Gone (or replaced by a link) since its mtime was read: what it held is gone from the index too.
      if (folder !== '') this.remove(folder);
      return false;
    }
    if (newIgnore) return true;
    for (const child of before) if (after.get(child) !== this.entries.get(child)?.kind) this.remove(child);
    const added: string[] = [];
    for (const [child, kind] of after) {
      if (this.entries.has(child)) continue;
      if (!this.add(child, kind)) break;
      if (kind === 'dir') {
        await this.addTree(child);
        added.push(child, ...this.foldersUnder(child));
      }
    }
    await this.recordMtimes([folder, ...added]);
    return false;
  }

  /** Walks a folder already in the index (or the root) and adds everything below it. */
  private async addTree(folder: string): Promise<void> {
    for await (const entry of walk(this.absolute(folder), { workspace: this.workspace, maxDepth: Infinity })) {
      if (entry.kind !== 'file' && entry.kind !== 'dir') continue;
      if (!this.add(join(folder, entry.path), entry.kind)) return;
    }
  }

  /** False once the index is full. */
  private add(relative: string, kind: MentionKind): boolean {
    if (this.entries.size >= this.maxEntries) {
      this.capped = true;
      return false;
    }
    this.entries.set(relative, indexedPath(relative, kind));
    this.children.get(parentOf(relative))?.add(relative);
    if (kind === 'dir') this.children.set(relative, new Set());
    this.list = null;
    return true;
  }

  private remove(relative: string): void {
    for (const child of this.children.get(relative) ?? []) this.remove(child);
    this.children.delete(relative);
    this.children.get(parentOf(relative))?.delete(relative);
    this.entries.delete(relative);
    this.mtimes.delete(relative);
    this.mtimes.delete(join(relative, '.gitignore'));
    this.list = null;
  }

  private foldersUnder(folder: string): string[] {
    const found: string[] = [];
    for (const child of this.children.get(folder) ?? []) {
      if (!this.children.has(child)) continue;
      found.push(child, ...this.foldersUnder(child));
    }
    return found;
  }

  private ignoreFiles(): string[] {
    return [...this.entries.keys()].filter(isIgnoreFile);
  }

  private async recordMtimes(paths: string[]): Promise<void> {
    const found = await this.mtimesOf(paths);
    for (const relative of paths) {
      const mtime = found.get(relative);
      if (mtime !== undefined) this.mtimes.set(relative, mtime);
      if (this.children.has(relative)) {
        const ignoreFile = join(relative, '.gitignore');
        if (this.entries.has(ignoreFile) && !paths.includes(ignoreFile)) await this.recordMtimes([ignoreFile]);
      }
    }
  }

  private async mtimesOf(paths: string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (let start = 0; start < paths.length; start += STAT_BATCH) {
      const batch = paths.slice(start, start + STAT_BATCH);
      const stats = await Promise.all(batch.map((relative) => lstat(this.absolute(relative)).catch(() => null)));
      batch.forEach((relative, index) => {
        const info = stats[index];
        if (info) found.set(relative, info.mtimeMs);
      });
    }
    return found;
  }

  private absolute(relative: string): string {
    return relative === '' ? this.workspace : path.join(this.workspace, ...relative.split('/'));
  }
}

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}

function depthOf(relative: string): number {
  return relative === '' ? 0 : relative.split('/').length;
}

function isIgnoreFile(relative: string): boolean {
  return relative === '.gitignore' || relative.endsWith('/.gitignore');
}
