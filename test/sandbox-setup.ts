import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_SANDBOX_RULES, type SandboxRules } from '../protocol/sandbox.ts';
import { runInGroup, type GroupEnd } from '../main/tools/exec/run-in-group.ts';
import { systemClock } from '../main/tools/progress-reporter.ts';
import { launchSandbox } from '../main/tools/sandbox/sandbox-launch.ts';
import { probeSandboxSupport } from '../main/tools/sandbox/sandbox-support.ts';

// A sandbox's surroundings for tests with the real bwrap: a folder outside /tmp (the sandbox's
// /tmp is a private tmpfs, which would hide a test folder there and prove nothing), holding the
// workspace, a home with keys in it and a folder outside the workspace the command can read.

export interface SandboxScene {
  root: string;
  workspace: string;
  home: string;
  outside: string;
}

/** The private key text the tests plant in the fake home. */
export const PLANTED_KEY = '-----BEGIN OPENSSH PRIVATE KEY----- planted-for-the-test';

export async function makeSandboxScene(): Promise<SandboxScene> {
  const root = await realpath(await mkdtemp('/var/tmp/aether-sandbox-'));
  const scene = {
    root,
    workspace: path.join(root, 'ws'),
    home: path.join(root, 'home'),
    outside: path.join(root, 'outside'),
  };
  for (const folder of [scene.workspace, scene.outside, path.join(scene.home, '.ssh'), path.join(scene.home, '.aws')])
    await mkdir(folder, { recursive: true });
  await writeFile(path.join(scene.home, '.ssh', 'id_ed25519'), PLANTED_KEY);
  await writeFile(path.join(scene.home, '.aws', 'credentials'), 'aws_secret_access_key = planted');
  await writeFile(path.join(scene.outside, 'readme.txt'), 'outside the workspace\n');
  return scene;
}

export async function removeSandboxScene(scene: SandboxScene | null): Promise<void> {
  if (scene) await rm(scene.root, { recursive: true, force: true });
}

export interface SandboxedRun extends GroupEnd {
  output: string;
  refusal: string | null;
}

/** Runs `command` through /bin/sh in the sandbox, as exec does, and reads what it said. */
export async function runSandboxed(
  scene: SandboxScene,
  command: string,
  rules: Partial<SandboxRules> = {},
  options: {
    signal?: AbortSignal;
    timeoutMs?: number;
    started?: (pid: number | undefined) => void;
    /** Local daemons' sockets the sandbox covers (sandbox-plan.ts localDaemonSockets). */
    sockets?: string[];
  } = {},
): Promise<SandboxedRun> {
  const support = probeSandboxSupport();
  if (!support.available) throw new Error(`bwrap is needed for this test: ${support.reason} ${support.fix}`);
  const launch = await launchSandbox({
    rules: { ...DEFAULT_SANDBOX_RULES, ...rules },
    place: {
      workspace: scene.workspace,
      cwd: scene.workspace,
      home: scene.home,
      ...(options.sockets ? { sockets: options.sockets } : {}),
    },
    support,
  });
  const chunks: Buffer[] = [];
  try {
    const ended = await runInGroup({
      shell: '/bin/sh',
      command,
      cwd: scene.workspace,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scene.home, LANG: 'C' },
      timeoutMs: options.timeoutMs ?? 60_000,
      killGraceMs: 1000,
      signal: options.signal ?? new AbortController().signal,
      clock: systemClock,
      wrapper: {
        ...(launch.endsEverything ? { endsEverything: true } : {}),
        wrap: (argv) => launch.wrap(argv),
        env: (base) => launch.env(base),
        started: (pid) => {
          launch.started(pid);
          options.started?.(pid);
        },
      },
      append: (chunk) => {
        chunks.push(chunk);
        return true;
      },
      drained: () => Promise.resolve(),
    });
    const output = Buffer.concat(chunks).toString('utf8');
    return { ...ended, output, refusal: launch.refusal(output) };
  } finally {
    await launch.close();
  }
}
