import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandboxScene, removeSandboxScene, runSandboxed, type SandboxScene } from '../../../test/sandbox-setup.ts';

// A sandboxed command's end: bubblewrap is the first process of the command's PID namespace, so
// once it has exited of itself the kernel has ended everything the command started — the run
// trusts that instead of scanning /proc for what it left (run-in-group.ts), and these check it.

let scene: SandboxScene;
beforeEach(async () => {
  scene = await makeSandboxScene();
});
afterEach(async () => {
  await removeSandboxScene(scene);
});

/** Pids of live processes whose command line starts with `prefix`, read from /proc as it is now. */
function processesNamed(prefix: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const line = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const state = /\) (\S)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'))?.[1];
      if (line.startsWith(prefix) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

describe('the end of a sandboxed command', () => {
  it('leaves nothing running of what it started, daemons in their own session included', async () => {
    const run = await runSandboxed(
      scene,
      'sleep 61.25 & setsid sleep 61.5 & (setsid sh -c "sleep 61.75 & exit 0") ; echo started',
    );
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain('started');
    expect(processesNamed('sleep 61.')).toEqual([]);
  });

  it('ends what is left when the sandbox itself was killed, looking for it as outside', async () => {
    let outer: number | undefined;
    const running = runSandboxed(
      scene,
      'setsid sleep 62.5 & echo up; sleep 62.25',
      {},
      { started: (pid) => (outer = pid) },
    );
    // Once both sleeps run, bubblewrap is killed from outside: its exit is a signal, not its own.
    while (processesNamed('sleep 62.').length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    if (outer === undefined) throw new Error('bubblewrap did not start');
    process.kill(outer, 'SIGKILL');
    const run = await running;
    expect(run.signal).toBe('SIGKILL');
    expect(processesNamed('sleep 62.')).toEqual([]);
  });
});
