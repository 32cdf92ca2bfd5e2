import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning, killStill } from '../../../test/processes.ts';
import { KEEPS_MARKER_VAR, OWNER_MARKER_VAR, ownerMark, ownerParts } from './call-processes.ts';
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

  it('ends only what an app of the same home left: another install ($AETHERCODEX_HOME) keeps its own', async () => {
    const gone = await goneOwner();
    const home = ownerParts(ownerMark()).home;
    const sameHome = await markedSleep(home ? `${gone}~${home}` : gone, true);
    const otherHome = await markedSleep(`${gone}~${home === '0123456789ab' ? 'ba9876543210' : '0123456789ab'}`, true);

    const left = findLeft().map((entry) => entry.pid);

    expect(left).toContain(sameHome);
    expect(left).not.toContain(otherHome);
  });
});

describe('the owner mark', () => {
  /** ownerMark() as a fresh app process with `home` as $AETHERCODEX_HOME (none: the default home) prints it. */
  function markWith(home: string | undefined): string {
    const env: NodeJS.ProcessEnv = { ...process.env, AETHERCODEX_HOME: home };
    if (home === undefined) delete env['AETHERCODEX_HOME'];
    const module = new URL('./call-processes.ts', import.meta.url).href;
    const script = `import(${JSON.stringify(module)}).then((m) => process.stdout.write(m.ownerMark()))`;
    return execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  }

  it('names the app home when $AETHERCODEX_HOME gives one, the same for the same folder', () => {
    const plain = markWith(undefined);
    const homed = markWith('/tmp/aether-home-a');
    expect(ownerParts(plain).home).toBe('');
    expect(ownerParts(homed).home).toMatch(/^[0-9a-f]{12}$/);
    expect(ownerParts(markWith('/tmp/aether-home-a/')).home).toBe(ownerParts(homed).home);
    expect(ownerParts(markWith('/tmp/aether-home-b')).home).not.toBe(ownerParts(homed).home);
    expect(ownerParts(homed).process).toMatch(/^\d+\.\d+$/);
  });
});
