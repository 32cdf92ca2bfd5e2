import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES, type SandboxRules } from '../../../protocol/sandbox.ts';
import { makeSandboxScene, removeSandboxScene, type SandboxScene } from '../../../test/sandbox-setup.ts';
import { runInGroup } from '../exec/run-in-group.ts';
import { systemClock } from '../progress-reporter.ts';
import { sandboxForCommand } from './sandbox-launch.ts';
import { endWaitingSandboxes } from './warm-sandbox.ts';

// A sandbox made ahead, with the real bwrap: the next command with the same plan takes it and
// runs as a fresh one would — its own folder, environment and input, the same refusals — and one
// whose plan changed meanwhile is never taken.

let scene: SandboxScene;
beforeEach(async () => {
  scene = await makeSandboxScene();
  await mkdir(path.join(scene.workspace, 'sub'));
});
afterEach(async () => {
  endWaitingSandboxes();
  await removeSandboxScene(scene);
});

/** Pids of the sandboxes waiting for a command now. */
async function waitingPids(): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (line.startsWith('/usr/bin/bwrap\0') && line.includes(scene.workspace) && line.includes('aether-warm'))
      found.push(Number(entry));
  }
  return found;
}

async function waitForWaiting(): Promise<number[]> {
  for (;;) {
    const pids = await waitingPids();
    if (pids.length > 0) return pids;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function run(command: string, rules: SandboxRules = DEFAULT_SANDBOX_RULES, cwd = scene.workspace) {
  const sandbox = await sandboxForCommand(rules, { workspace: scene.workspace, cwd });
  let output = '';
  try {
    const end = await runInGroup({
      shell: '/bin/sh',
      command,
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', QUOTED: 'it\'s "here"\nand $HOME', LANG: 'C' },
      stdin: 'the hook event',
      timeoutMs: 60_000,
      killGraceMs: 1000,
      signal: new AbortController().signal,
      clock: systemClock,
      wrapper: sandbox,
      append: (chunk) => {
        output += chunk.toString('utf8');
        return true;
      },
      drained: () => Promise.resolve(),
    });
    return { end, output, refusal: sandbox.refusal(output) };
  } finally {
    await sandbox.close();
  }
}

const PROBE = 'printf "%s|%s|%s|%s\\n" "$(pwd)" "$QUOTED" "$TMPDIR" "$(cat)"; echo x > /usr/aether-warm-test; exit 5';

describe('a sandbox made ahead', () => {
  it('takes the next command as a fresh sandbox would: its folder, environment, input and refusals', async () => {
    const cwd = path.join(scene.workspace, 'sub');
    const cold = await run(PROBE, DEFAULT_SANDBOX_RULES, cwd);
    const [warm] = await waitForWaiting();
    const taken = await run(PROBE, DEFAULT_SANDBOX_RULES, cwd);
    expect(taken.end.pgid).toBe(warm);
    expect(cold.end.pgid).not.toBe(warm);
    for (const ran of [cold, taken]) {
      expect(ran.end.exitCode).toBe(5);
      expect(ran.output.startsWith(`${cwd}|it's "here"\nand $HOME|/tmp|the hook event\n`)).toBe(true);
      expect(ran.refusal).toContain('it tried to write /usr/aether-warm-test, outside what the sandbox lets it write');
    }
  });

  it('is not taken once the plan changed: a secret that appeared meanwhile stays hidden', async () => {
    const secret = path.join(scene.outside, 'token.txt');
    const rules = { ...DEFAULT_SANDBOX_RULES, hidden: [secret] };
    await run('true', rules);
    const waiting = await waitForWaiting();
    await writeFile(secret, 'planted token\n');
    const after = await run(`cat ${secret}; echo read`, rules);
    expect(waiting).not.toContain(after.end.pgid);
    expect(after.output).not.toContain('planted token');
    expect(after.output).toContain('read');
  });
});
