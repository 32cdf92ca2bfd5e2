import { randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';

// One writer per session. Two processes appending to one file would repeat sequence numbers, and
// the second one's repair would mark the first one's running turn "Interrupted". The writer holds
// `<id>.lock` beside the session file: who holds it (pid, host, when that process started), written
// whole before the lock exists (a temp file hard-linked into place, which fails if a lock is there).
// A lock whose process is gone — same host, pid not running, or running but started at another
// time (the pid was reused) — is stale and taken over; a lock held on another host is respected,
// since its process cannot be checked from here.

export interface LockOwner {
  pid: number;
  host: string;
  /** When the holding process started (Linux: from /proc; elsewhere absent), to catch reused pids. */
  process_start?: string;
  /** When the lock was taken, ISO. */
  since: string;
  /** Tells this lock from an identical-looking one when it is released. */
  token: string;
}

export class SessionLockedError extends Error {
  override name = 'SessionLockedError';
  readonly holder: LockOwner;

  constructor(sessionId: string, holder: LockOwner) {
    super(
      `Session ${sessionId} is open in another process (${describeOwner(holder)}); only that process can write to it until it closes the session.`,
    );
    this.holder = holder;
  }
}

export function describeOwner(owner: LockOwner): string {
  const host = owner.host === os.hostname() ? '' : ` on ${owner.host}`;
  return `pid ${owner.pid}${host}, since ${owner.since}`;
}

/** A process's start time as the kernel counts it (Linux), or undefined where that cannot be read. */
async function processStart(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the command name (field 2) may hold spaces, so count after its ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(owner: LockOwner): Promise<boolean> {
  if (owner.host !== os.hostname()) return false;
  if (!pidRunning(owner.pid)) return true;
  if (owner.process_start === undefined) return false;
  const start = await processStart(owner.pid);
  return start !== undefined && start !== owner.process_start;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.token !== 'string') return null;
    return { since: '', ...value } as LockOwner;
  } catch {
    return null;
  }
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export class SessionLock {
  readonly file: string;
  readonly owner: LockOwner;
  private released = false;

  private constructor(file: string, owner: LockOwner) {
    this.file = file;
    this.owner = owner;
  }

  /** Takes the lock at `file` for session `sessionId`, or throws SessionLockedError naming who holds it. */
  static async acquire(file: string, sessionId: string): Promise<SessionLock> {
    const start = await processStart(process.pid);
    const owner: LockOwner = {
      pid: process.pid,
      host: os.hostname(),
      ...(start === undefined ? {} : { process_start: start }),
      since: new Date().toISOString(),
      token: randomBytes(8).toString('hex'),
    };
    const temp = `${file}.${owner.token}.tmp`;
    await writeFile(temp, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
    try {
      // A few rounds: a stale lock is moved aside, then the lock is tried again.
      for (let round = 0; round < 3; round += 1) {
        try {
          await link(temp, file);
          return new SessionLock(file, owner);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const text = await readText(file);
        if (text === null) continue;
        const holder = parseOwner(text);
        // A lock file that does not parse was never written by a holder that got the lock (they are
        // written whole before linking): it is debris, as stale as a dead process's.
        if (holder && !(await isStale(holder))) throw new SessionLockedError(sessionId, holder);
        await moveAsideIfUnchanged(file, text);
      }
      const holder = parseOwner((await readText(file)) ?? '');
      if (holder) throw new SessionLockedError(sessionId, holder);
      throw new Error(`Could not take the lock ${file}: it keeps changing. Try again.`);
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /** Gives the lock up, unless another process has taken it over in the meantime. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const text = await readText(this.file).catch(() => null);
    if (text !== null && parseOwner(text)?.token === this.owner.token) await unlink(this.file).catch(() => undefined);
  }
}

/**
 * Removes a stale lock, but only the one that was judged: it is renamed to a name of its own first
 * (atomic), and if what was moved is not what was read, it was a fresh lock and goes back.
 */
async function moveAsideIfUnchanged(file: string, judged: string): Promise<void> {
  const aside = `${file}.${randomBytes(8).toString('hex')}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readText(aside);
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}
