import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client, ExecOptions } from 'ssh2';
import { StatusRecorder } from '../main/status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { createSshExec, ENV, PTY } from '../main/tools/ssh/ssh-exec.ts';
import { resolveTarget, type SshPaths } from '../main/tools/ssh/ssh-target.ts';
import { startSshd } from '../test/sshd.ts';
import { findSshd } from '../test/system-programs.ts';
import { compare, fmt, type Timing } from './measure.ts';

// A warm ssh_exec call (`echo hi` through the registry, on a pooled connection already open) against
// a bare ssh2 `exec` of the same command on the same connection, to the loopback sshd of the tests.
// Both start the account's shell once, so the ratio is what ssh_exec adds: the terminal, the report
// of the process group, the pipeline. The server's HOME is a temp folder holding the account's
// start-up files (.bashrc, also as BASH_ENV, and .zshenv), so the rows do not depend on the machine's
// own: first files that do nothing, then files that take 100 ms, as a version manager's or conda's
// set-up does, where a second start-up of the shell a call would show as twice the bare exec. A bare
// exec with ssh_exec's terminal is measured beside them: the part of the ratio that is the terminal.
// Rounds rotate which goes first, so all see the same load; medians.

const ROUNDS = 11;
const WARM_UP = 2;
const SLOW_STARTUP = 'sleep 0.1';

export async function run(): Promise<void> {
  console.log('ssh_exec, a warm call (echo hi, loopback sshd)');
  if ('missing' in findSshd(process.env)) {
    console.log('  skipped: no sshd (test/preflight.ts says what to install)');
    return;
  }
  const home = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-ssh-home-'));
  const sshd = await startSshd({ setEnv: { HOME: home, BASH_ENV: path.join(home, '.bashrc') } });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-ssh-'));
  const paths: SshPaths = {
    home: dir,
    config: path.join(dir, 'ssh_config'),
    knownHosts: [path.join(dir, 'known_hosts')],
    appKnownHosts: path.join(dir, 'app', 'known_hosts'),
    agentSocket: undefined,
  };
  await mkdir(path.dirname(paths.appKnownHosts));
  const host = ['Host benchbox', '  HostName 127.0.0.1', `  Port ${sshd.port}`, `  User ${sshd.user}`];
  await writeFile(paths.config, [...host, `  IdentityFile ${sshd.clientKey}`, ''].join('\n'));
  await writeFile(paths.knownHosts[0]!, `${sshd.knownHostsLine}\n`);
  const { tool, pool } = createSshExec({ paths });
  try {
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
    const registry = new ToolRegistry({ workspace: dir, sessionDir: dir, sink: new StatusRecorder(), gate });
    registry.register(tool);
    let id = 0;
    const viaTool = async (): Promise<void> => {
      const outcome = await registry.call({
        callId: `b${(id += 1)}`,
        name: 'ssh_exec',
        args: { host: 'benchbox', command: 'echo hi' },
      });
      if (outcome.isError) throw new Error(outcome.content);
    };
    await viaTool();
    // The pool's own connection, the one the tool's calls use.
    const target = await resolveTarget('benchbox', paths);
    const lease = await pool.acquire(target, async () => false, new AbortController().signal);
    const bare = () => bareExec(lease.client, 'echo hi', {});
    const bareTerminal = () => bareExec(lease.client, 'echo hi', { pty: PTY, env: ENV });
    try {
      for (const [label, startup] of [
        ['start-up files that do nothing', ''],
        ['start-up files taking 100 ms', SLOW_STARTUP],
      ] as const) {
        await writeStartupFiles(home, startup);
        const { each, firstMinusSecond } = await rounds(ROUNDS, [viaTool, bare, bareTerminal]);
        const [ours, baseline, terminal] = each as [Timing, Timing, Timing];
        console.log(compare(`  ${label}`, ours, baseline, 'bare ssh2 exec'));
        console.log(`    per round, ssh_exec minus bare: median ${fmt(firstMinusSecond.medianMs)}`);
        console.log(`    bare exec with ssh_exec's terminal and env: ${fmt(terminal.medianMs)}`);
      }
    } finally {
      lease.release();
    }
  } finally {
    await pool.closeAll();
    await sshd.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

async function writeStartupFiles(home: string, body: string): Promise<void> {
  for (const name of ['.bashrc', '.zshenv']) await writeFile(path.join(home, name), `${body}\n`);
}

/** `command` on its own channel, its output read and dropped; resolves when the channel closes. */
function bareExec(client: Client, command: string, options: ExecOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    client.exec(command, options, (error, channel) => {
      if (error) return reject(error);
      channel.on('data', () => undefined);
      channel.stderr.on('data', () => undefined);
      channel.on('close', () => resolve());
    });
  });
}

/**
 * Medians of each variant's times and of the first minus the second in each round, after a warm-up;
 * each round starts at a different variant, so all see the same load.
 */
async function rounds(
  count: number,
  variants: (() => Promise<void>)[],
): Promise<{ each: Timing[]; firstMinusSecond: Timing }> {
  for (let index = 0; index < WARM_UP; index += 1) for (const variant of variants) await variant();
  const samples: number[][] = variants.map(() => []);
  for (let round = 0; round < count; round += 1) {
    for (let step = 0; step < variants.length; step += 1) {
      const which = (round + step) % variants.length;
      const start = performance.now();
      await variants[which]!();
      samples[which]!.push(performance.now() - start);
    }
  }
  const [first = [], second = []] = samples;
  return {
    each: samples.map(median),
    firstMinusSecond: median(first.map((value, index) => value - (second[index] ?? 0))),
  };
}

function median(samples: number[]): Timing {
  const sorted = [...samples].sort((x, y) => x - y);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: samples.length };
}
