import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';

// Processes a test started and must see ended: found by pid, waited for through the files they
// write their pid to, and killed after the test whatever it found.

/** True while `pid` runs: a zombie waiting to be reaped counts as ended, where /proc can tell. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // No /proc (macOS): kill(0) is all there is.
  }
}

/** The pid a process wrote to `file`, once the file holds one. */
export async function pidIn(file: string): Promise<number> {
  const read = async (): Promise<number> => Number((await readFile(file, 'utf8').catch(() => '')).trim());
  await expect.poll(read, { timeout: 20_000, interval: 25 }).toBeGreaterThan(0);
  return read();
}

/** SIGKILL to whichever of `pids` still run: a failing test leaves nothing running for the next. */
export function killStill(pids: number[]): void {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
