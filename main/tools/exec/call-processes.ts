import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../progress-reporter.ts';

// Finding every process a command started. Killing the shell's process group misses a child that
// moved to a session of its own (`setsid`, `nohup … &` in some shells, daemons that double-fork).
// So each call marks its shell's environment with AETHER_CALL_ID=<unique>: every descendant inherits
// it whatever group or session it moves to, and on Linux /proc/<pid>/environ shows it. (A cgroup
// would also catch a child that clears its environment, but a desktop user can rarely create one;
// a process that runs `env -i` is still caught while it stays in the group.) Without /proc (macOS)
// only the group is signalled. MCP servers are started the same way (mcp-stdio-transport.ts).
// A second variable, AETHER_OWNER, names the app process itself, so that what a crashed app left
// running is found and ended at the next start (left-processes.ts). An app given a home of its own
// ($AETHERCODEX_HOME: a second install, a portable copy, a test) adds that home to the name, and
// ends only what an app of the same home left.

export const CALL_MARKER_VAR = 'AETHER_CALL_ID';
export const OWNER_MARKER_VAR = 'AETHER_OWNER';
/** Set on the keeper of what `aether run --keep-processes` left running (processes/keep-running.ts). */
export const KEEPS_MARKER_VAR = 'AETHER_KEEPS';

const POLL_MS = 50;

/** How long a stopped command gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

export interface CallProcess {
  pid: number;
  /** False for a process that left the call's process group: a daemon the command left behind. */
  inGroup: boolean;
}

/** What ending a call's processes did: how many went away, and the pids still there after SIGKILL. */
export interface Ending {
  ended: number;
  /** Of those, how many had left the command's process group. */
  endedOutsideGroup: number;
  survivors: number[];
}

/** Calls whose processes may still run: what endEveryCallNow reaches when the app has no time left. */
const running = new Set<CallProcesses>();

/** The processes one call started: its shell's process group and everything carrying its marker. */
export class CallProcesses {
  readonly marker = randomUUID();
  private readonly procRoot: string;
  pgid: number | undefined;

  constructor(procRoot = '/proc') {
    this.procRoot = procRoot;
  }

  /** The environment for the call's shell: the caller's, plus the call's marker and the app's. */
  environment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return { ...base, [CALL_MARKER_VAR]: this.marker, [OWNER_MARKER_VAR]: ownerMark() };
  }

  /** The call's leader started (undefined: it did not): its group is the call's until end(). */
  started(pgid: number | undefined): void {
    this.pgid = pgid;
    if (pgid !== undefined) running.add(this);
  }

  /** Sends `signal` to the group and every marked process at once, without waiting. */
  signalNow(signal: NodeJS.Signals): void {
    if (this.pgid !== undefined) kill(-this.pgid, signal);
    for (const { pid } of this.scan() ?? []) kill(pid, signal);
  }

  /** Its processes go on without this app: they are no longer among those it ends as it exits. */
  letGo(): void {
    running.delete(this);
  }

  /** Live (not zombie) processes of the call; null where /proc cannot be read. */
  scan(): CallProcess[] | null {
    let entries: string[];
    try {
      entries = readdirSync(this.procRoot);
    } catch {
      return null;
    }
    const needle = Buffer.from(`${CALL_MARKER_VAR}=${this.marker}\0`);
    const found: CallProcess[] = [];
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (pid === process.pid) continue;
      const stat = readStat(`${this.procRoot}/${entry}/stat`);
      if (!stat || stat.state === 'Z') continue;
      const inGroup = this.pgid !== undefined && stat.pgrp === this.pgid;
      if (inGroup || hasMarker(`${this.procRoot}/${entry}/environ`, needle)) found.push({ pid, inGroup });
    }
    return found;
  }

  /**
   * Without /proc (macOS) only the group can be reached: it stands for its processes, as one entry
   * (its negative id signals the whole group) while any of it is left.
   */
  private groupAsProcess(): CallProcess[] {
    if (this.pgid === undefined) return [];
    try {
      process.kill(-this.pgid, 0);
      return [{ pid: -this.pgid, inGroup: true }];
    } catch {
      return [];
    }
  }

  /** Nothing of the call can be left (its wrapper saw to it): forgets it without a look. */
  ended(): Ending {
    running.delete(this);
    return { ended: 0, endedOutsideGroup: 0, survivors: [] };
  }

  /**
   * Ends the call's processes: SIGTERM to the group and to every marked process, SIGKILL after the
   * grace to what is left, scanning again each time so a child forked in between is caught too.
   */
  async end(graceMs: number, clock: Clock): Promise<Ending> {
    const seen = new Map<number, boolean>();
    const look = (): CallProcess[] => {
      const now = this.scan() ?? this.groupAsProcess();
      // The latest look decides: a child seen before it called setsid has left the group since.
      for (const { pid, inGroup } of now) seen.set(pid, inGroup);
      return now;
    };
    const signal = (name: NodeJS.Signals, processes: CallProcess[]): void => {
      if (this.pgid !== undefined) kill(-this.pgid, name);
      for (const { pid } of processes) kill(pid, name);
    };
    let left = look();
    for (const name of ['SIGTERM', 'SIGKILL'] as const) {
      if (left.length === 0) break;
      signal(name, left);
      for (let waited = 0; waited < graceMs && left.length > 0; waited += POLL_MS) {
        await pause(clock, Math.min(POLL_MS, graceMs - waited));
        left = look();
        // A process forked between two scans gets the signal it missed.
        signal(name, left);
      }
    }
    running.delete(this);
    const survivors = left.map(({ pid }) => pid);
    const gone = [...seen].filter(([pid]) => !survivors.includes(pid));
    return {
      ended: gone.length,
      endedOutsideGroup: gone.filter(([, inGroup]) => !inGroup).length,
      survivors,
    };
  }
}

/**
 * SIGKILL to everything every running call and MCP server started, at once: for an app that is
 * being ended with no time to stop them one by one (a second Ctrl-C, the system logging out).
 */
export function endEveryCallNow(): void {
  for (const processes of running) processes.signalNow('SIGKILL');
  running.clear();
}

let owner: string | undefined;

/**
 * This app process as AETHER_OWNER names it: `<pid>.<start time>` (in clock ticks since boot, from
 * /proc), so a later process that reuses the pid is not taken for it; the pid alone without /proc.
 * With $AETHERCODEX_HOME, `~` and a short hash of that home follow.
 */
export function ownerMark(): string {
  owner ??= ownerOf(process.pid, readStat('/proc/self/stat')) + homeSuffix(process.env['AETHERCODEX_HOME']);
  return owner;
}

export function ownerOf(pid: number, stat: ProcStat | null): string {
  return stat ? `${pid}.${stat.startTime}` : String(pid);
}

function homeSuffix(home: string | undefined): string {
  return home ? `~${createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 12)}` : '';
}

/** An owner mark's parts: the app process (`<pid>.<start time>`) and its home's hash ('' for the default home). */
export function ownerParts(mark: string): { process: string; home: string } {
  const at = mark.indexOf('~');
  return at === -1 ? { process: mark, home: '' } : { process: mark.slice(0, at), home: mark.slice(at + 1) };
}

export function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone. EPERM: not ours to end; it shows among the survivors.
  }
}

function pause(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

export interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  /** Clock ticks from boot to the process's start: with the pid, what tells it from a later one. */
  startTime: string;
}

export function readStat(file: string): ProcStat | null {
  try {
    const text = readFileSync(file, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'
    // (field 3, the state), so field n is at n - 3.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]), pgrp: Number(fields[2]), startTime: fields[19] ?? '' };
  } catch {
    return null;
  }
}

function hasMarker(file: string, needle: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(file);
  } catch {
    return false; // Gone, or another user's process: not one this call started.
  }
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}
