import { randomBytes } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Which folders of the workspace changed since the last scan, told by the kernel (inotify) rather
// than found by a stat of every file: a checkpoint of a 10 000-file workspace with one file
// changed then looks at that file's folder and the folders above it, not at 10 000 files.
//
// Every scanned folder is watched (before it is listed, so nothing changed between the listing
// and the watch is missed). A change marks its folder for a new listing, and the entry it names
// for a full scan (a folder created, replaced or renamed there is scanned from scratch).
//
// Events reach us asynchronously; a scan must not start before those of changes already made have
// arrived. The barrier: a file is written in a folder of our own, watched through the same inotify
// instance (libuv keeps one per event loop, read in order), and the scan waits for its event: once
// it has arrived, every event queued before it has been handled. Anything unexpected (a watch
// refused for want of inotify watches, an error, a barrier that never arrives) turns watching off
// for good and the scans stat every file again, as git does. Linux only: elsewhere the platform's
// watchers give no such order.

/** How long the barrier's event may take before watching is given up as unreliable. */
const BARRIER_TIMEOUT_MS = 2000;

// When the kernel's event queue of the process's one inotify instance overflows, the events after
// it are lost, and libuv drops the overflow's own notice without a word. An overflow needs the
// queue full (fs.inotify.max_queued_events, 16 384 by default) of events that all reach this
// process's watchers before the lost ones would have; so when a quarter of that many events were
// seen since the checkpoint before last, the next scan stats every file instead of trusting the
// watch. Counted across every watch of the process: they share the queue.

/** Events of every FolderWatch in this process, ever. */
let eventsSeen = 0;

/** Events seen within two takes that make the next scan look at everything. */
export const OVERFLOW_SUSPECT_EVENTS = Math.floor(maxQueuedEvents() / 4);

function maxQueuedEvents(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isInteger(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}

export interface FolderChanges {
  /** Folders (relative, '' the root) whose entries must be listed and stat'ed again. */
  listed: ReadonlySet<string>;
  /** Paths whose whole subtree must be scanned again (what was there may have been replaced). */
  subtrees: ReadonlySet<string>;
}

export class FolderWatch {
  private readonly workspace: string;
  private readonly barrierFolder: string;
  private readonly watchers = new Map<string, FSWatcher>();
  private listed = new Set<string>();
  private subtrees = new Set<string>();
  private barrier: FSWatcher | null = null;
  private barrierSeen: ((name: string) => void) | null = null;
  private barrierCount = 0;
  /** eventsSeen at the last two takes: an overflow's events may fall on both sides of one. */
  private seenAtTake: [number, number] = [eventsSeen, eventsSeen];
  /** Names this watch's barriers apart from another process's on the same folder. */
  private readonly instance = randomBytes(4).toString('hex');
  /** Set once anything went wrong: the scans no longer rely on the watch. */
  private broken = process.platform !== 'linux';

  constructor(workspace: string, barrierFolder: string) {
    this.workspace = workspace;
    this.barrierFolder = barrierFolder;
  }

  /** True while the watch can be relied on. */
  get reliable(): boolean {
    return !this.broken;
  }

  /** Watches folder `relative` (no-op when it already is, or when the watch is off). */
  watch(relative: string): void {
    if (this.broken || this.watchers.has(relative)) return;
    try {
      const watcher = watch(path.join(this.workspace, relative), { persistent: false }, (_event, name) =>
        this.changed(relative, name),
      );
      watcher.on('error', () => this.giveUp());
      this.watchers.set(relative, watcher);
    } catch {
      this.giveUp();
    }
  }

  /** Stops watching every folder that is not in `kept` (gone, or now ignored). */
  keepOnly(kept: ReadonlySet<string>): void {
    for (const [relative, watcher] of this.watchers) {
      if (kept.has(relative)) continue;
      watcher.close();
      this.watchers.delete(relative);
    }
  }

  /**
   * The changes since the last call, once every event of a change already made has arrived; null
   * when the watch cannot be relied on (the scan then looks at everything).
   */
  async take(): Promise<FolderChanges | null> {
    if (this.broken || this.watchers.size === 0) return null;
    if (!(await this.passBarrier())) return null;
    const changes = { listed: this.listed, subtrees: this.subtrees };
    this.listed = new Set();
    this.subtrees = new Set();
    const suspect = eventsSeen - this.seenAtTake[0] >= OVERFLOW_SUSPECT_EVENTS;
    this.seenAtTake = [this.seenAtTake[1], eventsSeen];
    // So many events that the queue may have overflowed: the scan stats every file, as without a watch.
    if (suspect) return null;
    // Folders of a subtree scanned again are watched again: their old watches may be on what was replaced.
    for (const relative of changes.subtrees) this.forgetUnder(relative);
    return changes;
  }

  /** Gives back changes a failed scan took, so the next scan looks at them. */
  putBack(changes: FolderChanges): void {
    for (const folder of changes.listed) this.listed.add(folder);
    for (const subtree of changes.subtrees) this.subtrees.add(subtree);
  }

  close(): void {
    this.broken = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.barrier?.close();
    this.barrier = null;
  }

  private changed(folder: string, name: string | Buffer | null): void {
    eventsSeen += 1;
    this.listed.add(folder);
    const entry = name === null ? null : name.toString();
    if (entry === null || entry === '.gitignore') this.subtrees.add(folder);
    else this.subtrees.add(folder ? `${folder}/${entry}` : entry);
  }

  private forgetUnder(relative: string): void {
    for (const [watched, watcher] of this.watchers) {
      if (!isUnder(watched, relative)) continue;
      watcher.close();
      this.watchers.delete(watched);
    }
  }

  private async passBarrier(): Promise<boolean> {
    try {
      if (!this.barrier) {
        await mkdir(this.barrierFolder, { recursive: true, mode: 0o700 });
        this.barrier = watch(this.barrierFolder, { persistent: false }, (_event, name) => {
          eventsSeen += 1;
          this.barrierSeen?.(String(name));
        });
        this.barrier.on('error', () => this.giveUp());
      }
      // Each barrier has its own name: a late event of the one before cannot pass for it.
      const name = `barrier-${this.instance}-${(this.barrierCount += 1)}`;
      const seen = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS);
        this.barrierSeen = (event) => {
          if (event !== name) return;
          clearTimeout(timer);
          resolve(true);
        };
      });
      await writeFile(path.join(this.barrierFolder, name), '');
      const arrived = await seen;
      this.barrierSeen = null;
      await rm(path.join(this.barrierFolder, name), { force: true });
      if (!arrived) this.giveUp();
      return arrived && !this.broken;
    } catch {
      this.giveUp();
      return false;
    }
  }

  private giveUp(): void {
    this.close();
  }
}

/** True when `relative` is `folder` or inside it ('' is the root, above everything). */
export function isUnder(relative: string, folder: string): boolean {
  return folder === '' || relative === folder || relative.startsWith(`${folder}/`);
}
