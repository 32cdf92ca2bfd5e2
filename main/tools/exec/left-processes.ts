import { readdirSync, readFileSync } from 'node:fs';
import {
  kill,
  KEEPS_MARKER_VAR,
  OWNER_MARKER_VAR,
  ownerMark,
  ownerOf,
  ownerParts,
  readStat,
  type ProcStat,
} from './call-processes.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';

// What an app process that is gone left running. Commands and MCP servers, and everything they
// start, carry AETHER_OWNER naming the app process that started them (call-processes.ts). An app
// that ends in any ordinary way stops them itself; one that crashed, was sent SIGKILL or lost its
// power could not, so each start ends the processes whose owner no longer runs: SIGTERM, then
// SIGKILL to those still there after the grace. Never those of an app process still running, nor
// this process's own ancestors or descendants, nor those of an app with another home
// ($AETHERCODEX_HOME): a second install ends only what its own crashes left. Linux only: without
// /proc nothing can be found.

export const LEFT_PROCESSES_GRACE_MS = 2000;

const POLL_MS = 50;

interface Entry extends ProcStat {
  pid: number;
  owner: string | null;
  /** A keeper's: the owner whose processes it keeps running after that owner ended. */
  keeps: string | null;
}

export interface LeftProcessesOptions {
  procRoot?: string;
  graceMs?: number;
  clock?: Clock;
}

/** Ends what app processes that are gone left running; resolves with how many processes it ended. */
export async function endLeftProcesses(options: LeftProcessesOptions = {}): Promise<number> {
  const procRoot = options.procRoot ?? '/proc';
  const clock = options.clock ?? systemClock;
  const graceMs = options.graceMs ?? LEFT_PROCESSES_GRACE_MS;
  const left = findLeft(procRoot);
  if (left.length === 0) return 0;
  const stillThere = (): Entry[] => left.filter((entry) => sameProcess(procRoot, entry));
  let remaining = left;
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    for (const { pid } of remaining) kill(pid, signal);
    for (let waited = 0; waited < graceMs; waited += POLL_MS) {
      await new Promise<void>((resolve) => clock.setTimeout(() => resolve(), POLL_MS));
      remaining = stillThere();
      if (remaining.length === 0) return left.length;
    }
  }
  return left.length - remaining.length;
}

/** Live processes marked by an owner that no longer runs, this process's own family left out. */
export function findLeft(procRoot = '/proc'): Entry[] {
  let names: string[];
  try {
    names = readdirSync(procRoot);
  } catch {
    return [];
  }
  const needle = Buffer.from(`${OWNER_MARKER_VAR}=`);
  const keepsNeedle = Buffer.from(`${KEEPS_MARKER_VAR}=`);
  const entries = new Map<number, Entry>();
  const kept = new Set<string>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = readStat(`${procRoot}/${name}/stat`);
    if (!stat || stat.state === 'Z') continue;
    const environ = readEnviron(`${procRoot}/${name}/environ`);
    const keeps = environ && markerValue(environ, keepsNeedle);
    if (keeps) kept.add(keeps);
    entries.set(pid, { pid, ...stat, owner: environ && markerValue(environ, needle), keeps: keeps ?? null });
  }
  const running = (owner: string): boolean => {
    // Left running on purpose, and its keeper still there: not left behind.
    if (kept.has(owner)) return true;
    const who = ownerParts(owner).process;
    const pid = Number.parseInt(who, 10);
    const entry = entries.get(pid);
    // A mark without a start time (made where /proc could not be read) can only be told by its pid.
    return entry !== undefined && (!who.includes('.') || ownerOf(pid, entry) === who);
  };
  const home = ownerParts(ownerMark()).home;
  const family = familyOf(process.pid, entries);
  return [...entries.values()].filter(
    (entry) =>
      entry.owner !== null && ownerParts(entry.owner).home === home && !family.has(entry.pid) && !running(entry.owner),
  );
}

/** `pid`, its ancestors and its descendants. */
function familyOf(pid: number, entries: Map<number, Entry>): Set<number> {
  const family = new Set<number>();
  for (let at = entries.get(pid); at && !family.has(at.pid); at = entries.get(at.ppid)) family.add(at.pid);
  family.add(pid);
  const isDescendant = (entry: Entry): boolean => {
    const seen = new Set<number>();
    for (let at: Entry | undefined = entry; at && !seen.has(at.pid); at = entries.get(at.ppid)) {
      if (at.ppid === pid) return true;
      seen.add(at.pid);
    }
    return false;
  };
  for (const entry of entries.values()) if (isDescendant(entry)) family.add(entry.pid);
  return family;
}

/** The same process still there and not a zombie (not a later one given its pid). */
function sameProcess(procRoot: string, entry: Entry): boolean {
  const now = readStat(`${procRoot}/${entry.pid}/stat`);
  return now !== null && now.state !== 'Z' && now.startTime === entry.startTime;
}

function readEnviron(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null; // Gone, or another user's process.
  }
}

/** The value of the variable `needle` starts (`NAME=`) in a process's environment; null without it. */
function markerValue(environ: Buffer, needle: Buffer): string | null {
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at !== 0 && environ[at - 1] !== 0) continue;
    const end = environ.indexOf(0, at);
    return environ.subarray(at + needle.length, end === -1 ? undefined : end).toString('latin1');
  }
  return null;
}
