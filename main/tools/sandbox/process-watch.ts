import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { kill } from '../exec/call-processes.ts';

// The process limit where the kernel does not keep it: RLIMIT_NPROC (set inside the sandbox) binds
// every user but root, whose processes the kernel never counts against it. For root the sandbox's
// PID namespace is watched instead: past the limit its first process is killed, and the kernel
// ends every process of the namespace with it.

const WATCH_MS = 50;

export interface ProcessWatch {
  /** True once the limit was passed and the sandbox ended. */
  readonly exceeded: boolean;
  stop(): void;
}

export function watchProcessCount(bwrapPid: number, limit: number, procRoot = '/proc'): ProcessWatch {
  let namespace: string | null = null;
  let first: number | null = null;
  const state = { exceeded: false };
  const look = (): void => {
    if (namespace === null) {
      first = childOf(bwrapPid, procRoot);
      if (first === null) return;
      try {
        namespace = readlinkSync(`${procRoot}/${first}/ns/pid`);
      } catch {
        return;
      }
    }
    if (countIn(namespace, procRoot, limit) > limit && first !== null) {
      state.exceeded = true;
      kill(first, 'SIGKILL');
      clearInterval(timer);
    }
  };
  const timer = setInterval(look, WATCH_MS);
  timer.unref();
  return {
    get exceeded() {
      return state.exceeded;
    },
    stop: () => clearInterval(timer),
  };
}

function childOf(pid: number, procRoot: string): number | null {
  try {
    const first = readFileSync(`${procRoot}/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/** Processes in the namespace, counted up to one past the limit. */
function countIn(namespace: string, procRoot: string, limit: number): number {
  let count = 0;
  for (const entry of readdirSync(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`${procRoot}/${entry}/ns/pid`) === namespace && ++count > limit) return count;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}
