import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CallProcesses } from './call-processes.ts';
import { systemClock } from '../progress-reporter.ts';

// The marker scan and the ending sequence on real processes, without the exec tool around them.

const spawned: number[] = [];

afterEach(() => {
  // Each shell leads a group of its own: end the group, so its sleep does not outlive the test.
  for (const pid of spawned.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already ended by the test.
    }
  }
});

/** Starts `sh -c script` detached, with the call's environment; resolves once it printed its first line. */
function startMarked(processes: CallProcesses, script: string): Promise<{ pid: number; line: string }> {
  const child = spawn('/bin/sh', ['-c', script], {
    env: processes.environment(process.env),
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  spawned.push(child.pid!);
  return new Promise((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve({ pid: child.pid!, line: chunk.toString().trim() })),
  );
}

describe('the processes of one call', () => {
  it('finds a daemon in a session of its own by its marker, and ends it', async () => {
    const processes = new CallProcesses();
    const { pid, line } = await startMarked(processes, 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!; wait');
    processes.pgid = pid;
    const daemon = Number(line);
    spawned.push(daemon);
    // `$!` is printed as soon as the child is forked, maybe before it called setsid.
    let found = processes.scan();
    for (let tries = 0; tries < 50 && !found?.some((entry) => entry.pid === daemon && !entry.inGroup); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      found = processes.scan();
    }
    expect(found).toEqual(
      expect.arrayContaining([
        { pid, inGroup: true },
        { pid: daemon, inGroup: false },
      ]),
    );
    const ending = await processes.end(500, systemClock);
    expect(ending).toMatchObject({ endedOutsideGroup: 1, survivors: [] });
    expect(processes.scan()).toEqual([]);
  });

  it('leaves alone a process started the same way by another call', async () => {
    const mine = new CallProcesses();
    const other = new CallProcesses();
    const { pid } = await startMarked(other, 'echo ready; sleep 1000');
    expect(mine.scan()).toEqual([]);
    expect(await mine.end(200, systemClock)).toEqual({ ended: 0, endedOutsideGroup: 0, survivors: [] });
    expect(other.scan()?.map((found) => found.pid)).toContain(pid);
  });

  it('reaches only the process group where /proc cannot be read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aether-noproc-'));
    try {
      const processes = new CallProcesses(path.join(dir, 'no-proc'));
      const { pid } = await startMarked(processes, 'echo ready; sleep 1000');
      processes.pgid = pid;
      expect(processes.scan()).toBeNull();
      // Without /proc a killed process still counts until it is reaped, which may take a moment here.
      const ending = await processes.end(3000, systemClock);
      expect(ending.survivors).toEqual([]);
      expect(() => process.kill(-pid, 0)).toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
