import { constants, type Stats } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import ignore, { type Ignore } from 'ignore';
import type { VerifiedFolder } from './confined-fs.ts';

// A folder's `.gitignore` rules, read and parsed once and kept while the file stays the same: a
// listing or a search looks up the rules of every folder it walks and of each folder above its
// start, and parsing them again each time cost more than the walk of a small folder. A kept entry
// is trusted only while the file's inode, size, mtime and ctime are those it was read with, so an
// edit (or a replacement) is read at the next walk.

/** Entries kept; past this, the oldest is dropped. */
const MAX_FOLDERS = 2000;

interface KeptRules {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  rules: Ignore;
}

export class IgnoreRules {
  private readonly kept = new Map<string, KeptRules>();
  /** How many `.gitignore` files were read and parsed (the tests watch the cache with it). */
  reads = 0;

  /** The rules of the folder's `.gitignore`; null when it has none, or it is not a plain file. */
  async of(folder: VerifiedFolder): Promise<Ignore | null> {
    const key = folder.realOf('.gitignore');
    // Through the verified folder; lstat and O_NOFOLLOW: a .gitignore that is a link (perhaps out
    // of the workspace) is not read.
    const stat = await lstat(folder.entry('.gitignore')).catch(() => null);
    if (!stat?.isFile()) {
      this.kept.delete(key);
      return null;
    }
    const kept = this.kept.get(key);
    if (kept && sameFile(kept, stat)) return kept.rules;
    const text = await readFile(folder.entry('.gitignore'), {
      encoding: 'utf8',
      flag: constants.O_RDONLY | constants.O_NOFOLLOW,
    }).catch(() => null);
    if (text === null) return null;
    this.reads += 1;
    const rules = ignore().add(text);
    this.kept.delete(key);
    this.kept.set(key, { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, rules });
    if (this.kept.size > MAX_FOLDERS) this.kept.delete(this.kept.keys().next().value!);
    return rules;
  }
}

function sameFile(kept: KeptRules, stat: Stats): boolean {
  return (
    kept.ino === stat.ino && kept.size === stat.size && kept.mtimeMs === stat.mtimeMs && kept.ctimeMs === stat.ctimeMs
  );
}

/** The rules this thread's walks share. */
export const sharedIgnoreRules = new IgnoreRules();
