import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from '../../../test/processes.ts';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { KEEPS_MARKER_VAR, ownerMark } from '../exec/call-processes.ts';
import { findLeft } from '../exec/left-processes.ts';
import { DEFAULT_PROCESS_LIMITS, ProcessTable } from './process-table.ts';

// Left running as `aether run --keep-processes` ends: a real command goes on, its output written on
// by its keeper, and the start sweep leaves it alone while its keeper runs.

const temp = useTempWorkspace('aether-keep-running-');
const pids: number[] = [];

afterEach(() => {
  // Negative: the kept command's process group.
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});

function keeperOf(owner: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`${KEEPS_MARKER_VAR}=${owner}\0`))
        return Number(entry);
    } catch {
      // Gone.
    }
  }
  return null;
}

describe('a background process left running', () => {
  it('goes on after it is let go, its output written on into its file', async () => {
    const table = new ProcessTable({ limits: () => DEFAULT_PROCESS_LIMITS, killGraceMs: 300 });
    const process = await table.start({
      callId: 'call-1',
      sessionDir: temp.sessionDir,
      request: {
        shell: '/bin/sh',
        command: 'i=0; while true; do i=$((i+1)); echo "line $i"; echo "err $i" >&2; sleep 0.05; done',
        cwd: temp.workspace,
        env: { PATH: globalThis.process.env['PATH'] },
      },
      tty: false,
    });
    const pid = process.pid!;
    pids.push(-pid);
    const { left, cannot } = await table.leaveRunning();
    expect(cannot).toEqual([]);
    expect(left).toMatchObject([{ id: 'p1', state: 'left_running', pid }]);
    const file = left[0]!.output_after!;
    expect(file).toBe(path.join(temp.sessionDir, 'processes', 'p1.after.log'));
    await table.close();
    expect(isRunning(pid)).toBe(true);
    await expect
      .poll(() => readFileSync(file, 'utf8').match(/line \d+/g)?.length ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(3);
    expect(readFileSync(file, 'utf8')).toMatch(/err \d+/);
    const keeper = keeperOf(ownerMark());
    expect(keeper).not.toBeNull();
    pids.push(keeper!);
    // While its keeper runs, the start sweep does not take it for left behind.
    expect(findLeft().map((entry) => entry.pid)).not.toContain(pid);

    // Its end closes the keeper too.
    globalThis.process.kill(-pid, 'SIGKILL');
    await expect.poll(() => isRunning(keeper!), { timeout: 20_000 }).toBe(false);
  });
});
