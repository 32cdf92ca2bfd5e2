import { closeSync, fstatSync, fsyncSync, readlinkSync, readSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { debuglog } from 'node:util';
import { EXACT_FD_PATHS } from './confined-fs.ts';

// Lines another program appends to a file while it is being replaced. A program that opened the
// file by path just before the rename (`echo … >> log`: open, write, close) writes into the
// replaced version — possibly well after the rename when it was descheduled between its open and
// its write. The replaced version stays open (read-only) for GRACE_MS after the write, and
// whatever it gains past the size it was checked at is appended to the new file through the new
// file's own descriptor (opened O_APPEND when it was created as the temp file): no path is
// followed, so a folder or a link swapped meanwhile cannot send a byte anywhere else, and before
// each carry the kernel is asked where that file is now (/proc/self/fd, Linux): it must still be
// at the confined path it was written to (elsewhere: still linked, a narrower check).
//
// Chains: when the new file is itself replaced by a later write, that write holds it open as its
// replaced version, so what is carried into it is carried on to the newest file. Every carry runs
// synchronously (no await between the size check, the read and the write), and a later write's
// identity check and rename run synchronously too, so a carry lands either before that check
// (the check sees the change: the write is refused or re-planned on the fresh file) or after the
// rename (the later write carries it on): never lost, never written twice.
//
// When the new file was replaced, moved or removed by another program, or the replaced one was
// cut short, what arrived cannot be placed: it is reported (`process.emitWarning`, and
// NODE_DEBUG=aether), never written into some other file or outside the workspace.

/** How long a replaced file is watched after its write returns. */
export const GRACE_MS = 3000;
/** At most this many replaced files are watched at once; the oldest is finished first. */
const MAX_WATCHED = 64;
const FIRST_POLL_MS = 5;
const SLOWEST_POLL_MS = 250;
const CHUNK_BYTES = 1024 * 1024;

const debug = debuglog('aether');

/** A replaced file held open, and the new file its late appends go to. */
export interface LateCarry {
  /** The replaced version, opened read-only before the rename. */
  replaced: number;
  /** How much of the replaced version is already accounted for (its checked size, then what was carried). */
  from: bigint;
  /** The new file, opened O_APPEND when it was created. */
  into: FileHandle;
  /** The confined real path the new file was written to. */
  real: string;
  shown: string;
}

interface Watch extends LateCarry {
  until: number;
  step: number;
  release: () => void;
  /** What arrived could not be placed (reported): nothing more is carried. */
  failed?: true;
}

const watched: Watch[] = [];
/** Replaced versions held by this process (a write in progress or a watch): a carry into one is carried on. */
const held = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;

export function keyOf(stats: { dev: bigint; ino: bigint }): string {
  return `${stats.dev}:${stats.ino}`;
}

/** Marks a replaced version as held by a write until `release` runs. */
export function holdReplaced(key: string): () => void {
  held.set(key, (held.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const count = (held.get(key) ?? 1) - 1;
    if (count === 0) held.delete(key);
    else held.set(key, count);
  };
}

/** The replaced version shrank: its old contents were changed, which cannot be carried over. */
export class CutShortError extends Error {
  override name = 'CutShortError';
}

/** What the replaced version gained cannot go into the new file: it is no longer where it was written. */
export class NotPlacedError extends Error {
  override name = 'NotPlacedError';
}

/**
 * Appends to `into` whatever the replaced version gained past `from`, in chunks of at most 1 MiB,
 * and advances `from`; `kept` receives the bytes. Synchronous from the size check to the write.
 * Returns how many bytes were carried.
 */
export function carryNow(carry: LateCarry, kept?: Buffer[]): number {
  let carried = 0;
  for (;;) {
    const now = fstatSync(carry.replaced, { bigint: true });
    if (now.size === carry.from) break;
    if (now.size < carry.from) throw new CutShortError(`${carry.shown}: the replaced version was cut short`);
    if (carried === 0 && !stillPlaced(carry)) {
      throw new NotPlacedError(
        `${now.size - carry.from} bytes another program appended to the replaced version arrived after the new ` +
          'file was replaced, moved or removed by another program; they are in neither file',
      );
    }
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Number(now.size - carry.from)));
    const read = readSync(carry.replaced, chunk, 0, chunk.length, Number(carry.from));
    if (read === 0) break;
    for (let done = 0; done < read;) done += writeSync(carry.into.fd, chunk, done, read - done);
    kept?.push(chunk.subarray(0, read));
    carry.from += BigInt(read);
    carried += read;
  }
  if (carried > 0) fsyncSync(carry.into.fd);
  return carried;
}

/**
 * The new file is still at its confined path, or was replaced by a write of this process, which
 * holds it and carries what reaches it on to the newest file.
 */
function stillPlaced(carry: LateCarry): boolean {
  const stats = fstatSync(carry.into.fd, { bigint: true });
  if (stats.nlink === 0n) return held.has(keyOf(stats));
  return !EXACT_FD_PATHS || readlinkSync(`/proc/self/fd/${carry.into.fd}`) === carry.real;
}

/**
 * On Windows a file held open keeps its folder from being removed or renamed: nothing is held past
 * the write there, and only what arrived by then is carried.
 */
const HOLDS_REPLACED = process.platform !== 'win32';

/** Keeps carrying late appends for GRACE_MS; takes ownership of both descriptors. */
export function watchLateAppends(carry: LateCarry, release: () => void): void {
  watched.push({ ...carry, until: Date.now() + GRACE_MS, step: FIRST_POLL_MS, release });
  if (!HOLDS_REPLACED) return finish(watched.length - 1);
  while (watched.length > MAX_WATCHED) finish(0);
  schedule();
}

/** Carries what every watched file gained so far (oldest first, so a chain is carried to its end). */
export function carryLateAppendsNow(): void {
  for (let index = 0; index < watched.length;) {
    const watch = watched[index];
    if (watch && poll(watch)) index += 1;
    else finish(index);
  }
}

/** Carries what is left and stops watching every replaced file (tests; closing the app). */
export function finishLateAppends(): void {
  carryLateAppendsNow();
  while (watched.length > 0) finish(0);
  if (timer) clearTimeout(timer);
  timer = undefined;
}

/** Polls one watch; false when it should stop (its grace ended, or what arrived cannot be placed). */
function poll(watch: Watch): boolean {
  return carryOrReport(watch) && Date.now() < watch.until;
}

function carryOrReport(watch: Watch): boolean {
  if (watch.failed) return false;
  try {
    const carried = carryNow(watch);
    if (carried > 0) debug('carried %d late bytes into %s', carried, watch.shown);
    return true;
  } catch (error) {
    watch.failed = true;
    report(
      watch,
      error instanceof CutShortError
        ? 'another program cut the replaced version short after it was replaced; what it changed there is not in the new file'
        : error instanceof NotPlacedError
          ? error.message
          : `appending what another program wrote to the replaced version failed: ${(error as Error).message}`,
    );
    return false;
  }
}

function finish(index: number): void {
  const [watch] = watched.splice(index, 1);
  if (!watch) return;
  carryOrReport(watch);
  watch.release();
  closeSync(watch.replaced);
  void watch.into.close().catch(() => undefined);
}

function schedule(): void {
  if (timer || watched.length === 0) return;
  const step = Math.min(...watched.map((watch) => watch.step));
  timer = setTimeout(tick, step);
  timer.unref();
}

function tick(): void {
  timer = undefined;
  carryLateAppendsNow();
  for (const watch of watched) watch.step = Math.min(watch.step * 2, SLOWEST_POLL_MS);
  schedule();
}

function report(watch: LateCarry, problem: string): void {
  debug('%s: %s', watch.shown, problem);
  process.emitWarning(`${watch.shown} was written, but ${problem}.`, { code: 'AETHER_LATE_APPEND' });
}
