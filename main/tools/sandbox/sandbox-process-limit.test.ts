import { execFile } from 'node:child_process';
import { chown, mkdtemp, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The process limit as a person's own account meets it: for any user but root the kernel keeps
// RLIMIT_NPROC (prlimit inside the sandbox), where root's processes are never counted and the
// sandbox is watched instead (sandbox-escapes.test.ts). Run as root, the test starts the app's
// side as `nobody` (setpriv) on a workspace that user owns; run as anyone else, as that user.

const run = promisify(execFile);
const NOBODY = 65534;
const runner = path.resolve(import.meta.dirname, '../../../test/sandboxed-as-user.ts');

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp('/var/tmp/aether-nproc-'));
  if (process.getuid?.() === 0) await chown(workspace, NOBODY, NOBODY);
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

interface Ran {
  uid: number;
  exitCode: number | null;
  output: string;
  refusal: string | null;
}

async function sandboxedAsUser(maxProcesses: number, command: string): Promise<Ran> {
  const node = [process.execPath, runner, workspace, String(maxProcesses), command];
  const asNobody = ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', ...node];
  const [file, ...args] = process.getuid?.() === 0 ? ['setpriv', ...asNobody] : node;
  // The compile cache is root's folder; the user's Node would only warn that it cannot write it.
  const env = { ...process.env, NODE_COMPILE_CACHE: '' };
  const { stdout } = await run(file ?? 'setpriv', args, { env, timeout: 60_000 });
  const ran = JSON.parse(stdout) as Ran | { unavailable: string };
  if ('unavailable' in ran) throw new Error(`The sandbox cannot start for this user: ${ran.unavailable}`);
  return ran;
}

// Each background sleep that started says so; dash ends the loop at the first fork refused.
const SPAWN_100 = 'i=0; while [ $i -lt 100 ]; do sleep 30 & echo started; i=$((i+1)); done; exit 3';

describe('the process limit for a user other than root', () => {
  it('refuses the processes past the limit, and says the limit stopped the command', async () => {
    const ran = await sandboxedAsUser(40, SPAWN_100);
    expect(ran.uid).not.toBe(0);
    const started = ran.output.split('\n').filter((line) => line === 'started').length;
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(40);
    expect(ran.output).toMatch(/Cannot fork|Resource temporarily unavailable/);
    expect(ran.refusal).toBe('The sandbox stopped it: it ran more processes than the sandbox allows at once (40).');
  });

  it('lets the same command start all it asks for under a higher limit', async () => {
    const ran = await sandboxedAsUser(1024, SPAWN_100);
    expect(ran.output.split('\n').filter((line) => line === 'started')).toHaveLength(100);
    expect(ran.exitCode).toBe(3);
    expect(ran.refusal).toBeNull();
  });
});
