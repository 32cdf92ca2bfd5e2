import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning, killStill } from '../../../test/processes.ts';
import { KEEPS_MARKER_VAR, OWNER_MARKER_VAR } from './call-processes.ts';
import { endLeftProcesses, findLeft } from './left-processes.ts';

// The start sweep on real processes: sleeps marked with an owner, orphaned (their shell exits, so
// they are no descendants of the test) or kept as the test's own children.

const started: number[] = [];

afterEach(() => killStill(started));

/** A process that has exited, as an owner that is gone. */
async function goneOwner(): Promise<string> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return `${child.pid}.1`;
}

/** A live process's owner mark, as the app process it is would write it. */
function ownerMarkOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return `${pid}.${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

/** `sleep 1000` marked with `owner`; `orphaned`: started by a shell that exits at once. */
async function markedSleep(owner: string, orphaned: boolean): Promise<number> {
  const script = orphaned ? 'sleep 1000 >/dev/null & echo $!' : 'echo $$; exec sleep 1000';
  const shell = spawn('/bin/sh', ['-c', script], {
    env: { ...process.env, [OWNER_MARKER_VAR]: owner },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = (await once(shell.stdout, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  started.push(pid);
  if (orphaned) await once(shell, 'exit');
  return pid;
}

describe.runIf(process.platform === 'linux')('the start sweep', () => {
  it('ends a process whose app process is gone', async () => {
    const left = await markedSleep(await goneOwner(), true);

    expect(await endLeftProcesses()).toBeGreaterThanOrEqual(1);

    expect(isRunning(left)).toBe(false);
  });

  it('leaves the processes of an app process still running, and this process’s own children', async () => {
    const owner = spawn('sleep', ['1000'], { stdio: 'ignore' }).pid!;
    started.push(owner);
    const ofRunning = await markedSleep(ownerMarkOf(owner), true);
    const ownChild = await markedSleep(await goneOwner(), false);

    await endLeftProcesses();

    expect(isRunning(ofRunning)).toBe(true);
    expect(isRunning(ownChild)).toBe(true);
  });

  it('leaves what a gone run left running on purpose while its keeper runs, and ends it once the keeper is gone', async () => {
    const owner = await goneOwner();
    const kept = await markedSleep(owner, true);
    const keeper = spawn('sleep', ['1000'], { env: { ...process.env, [KEEPS_MARKER_VAR]: owner }, stdio: 'ignore' });
    started.push(keeper.pid!);

    expect(findLeft().map((entry) => entry.pid)).not.toContain(kept);
    expect(findLeft().map((entry) => entry.pid)).not.toContain(keeper.pid);

    keeper.kill('SIGKILL');
    await once(keeper, 'exit');
    expect(findLeft().map((entry) => entry.pid)).toContain(kept);
  });
});
