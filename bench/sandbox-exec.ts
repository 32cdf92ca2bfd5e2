import { mkdtemp, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_SANDBOX_RULES, type SandboxRules } from '../protocol/sandbox.ts';
import { runInGroup } from '../main/tools/exec/run-in-group.ts';
import { systemClock } from '../main/tools/progress-reporter.ts';
import { sandboxForCommand } from '../main/tools/sandbox/sandbox-launch.ts';
import { endWaitingSandboxes } from '../main/tools/sandbox/warm-sandbox.ts';
import { compare, fmt, time, type Timing } from './measure.ts';

// What the sandbox adds to a command's start: `true` run as exec runs it (its own process group,
// marked, /bin/sh -c), inside the sandbox — the plan, bubblewrap's namespaces and mounts, the
// process limit — against the same run outside, measured in the same run, interleaved. The target
// is at most 30 ms more a command. Rows: the sandbox made ahead after the previous command (the
// usual case), one started for the command (the first of a workspace), and the allow-list (the
// proxy and the bridge inside, never made ahead).

const RUNS = 40;

async function once(workspace: string, rules: SandboxRules | null): Promise<void> {
  const sandbox = rules ? await sandboxForCommand(rules, { workspace, cwd: workspace }) : null;
  try {
    const ended = await runInGroup({
      shell: '/bin/sh',
      command: 'true',
      cwd: workspace,
      env: process.env,
      timeoutMs: 60_000,
      killGraceMs: 2000,
      signal: new AbortController().signal,
      clock: systemClock,
      ...(sandbox ? { wrapper: sandbox } : {}),
      append: () => true,
      drained: () => Promise.resolve(),
    });
    if (ended.exitCode !== 0) throw new Error(`true exited ${ended.exitCode}: ${ended.error ?? ''}`);
  } finally {
    await sandbox?.close();
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function median(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: values.length };
}

export async function run(): Promise<void> {
  const workspace = await realpath(await mkdtemp(path.join('/var/tmp', 'bench-sandbox-')));
  try {
    const network = { ...DEFAULT_SANDBOX_RULES, network: ['registry.npmjs.org'] };
    for (const rules of [null, DEFAULT_SANDBOX_RULES, network]) await once(workspace, rules); // warm
    // Each sandboxed row against its own unsandboxed runs, taken in turn with it: a run with the
    // allow-list leaves a network namespace whose loopback was used, and the kernel's teardown of
    // it slows whatever starts the next namespace (10–15 ms here), so the two rows are not mixed.
    // Commands come a model's answer apart (seconds); 200 ms between runs lets the sandbox made
    // ahead after one be ready for the next, as it is in use. `cold` ends it first: the first
    // command of a workspace (or after its rules changed) starts its sandbox then.
    const pairs = async (rules: SandboxRules, cold = false): Promise<{ plain: Timing; sandboxed: Timing }> => {
      const plainSamples: number[] = [];
      const sandboxedSamples: number[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        await pause(200);
        plainSamples.push((await time(1, () => once(workspace, null))).medianMs);
        await pause(200);
        if (cold) endWaitingSandboxes();
        sandboxedSamples.push((await time(1, () => once(workspace, rules))).medianMs);
      }
      return { plain: median(plainSamples), sandboxed: median(sandboxedSamples) };
    };
    const { plain, sandboxed } = await pairs(DEFAULT_SANDBOX_RULES);
    const { plain: plainCold, sandboxed: cold } = await pairs(DEFAULT_SANDBOX_RULES, true);
    const { plain: plainBeside, sandboxed: proxied } = await pairs(network);
    console.log(compare('exec `true` in the sandbox made ahead', sandboxed, plain, 'outside'));
    console.log(compare('the same, its sandbox started for it', cold, plainCold, 'outside'));
    console.log(compare('the same, network allow-list (proxy, bridge)', proxied, plainBeside, 'outside'));
    const added = (ms: number): string => `${ms < 0 ? '−' : '+'}${fmt(Math.abs(ms))}`;
    console.log(`added by the sandbox: ${added(sandboxed.medianMs - plain.medianMs)} a command (target ≤ 30 ms)`);
    console.log(`added by a sandbox started for the command: ${added(cold.medianMs - plainCold.medianMs)}`);
  } finally {
    endWaitingSandboxes();
    await rm(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
