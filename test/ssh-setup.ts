import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ApprovalQuestion, Approver } from '../main/tools/permission-gate.ts';
import { ALLOW_ALL, PermissionGate } from '../main/tools/permission-gate.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { createSshExec, type SshExecOptions } from '../main/tools/ssh/ssh-exec.ts';
import type { SshPaths } from '../main/tools/ssh/ssh-target.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import type { StatusEvent } from '../protocol/events.ts';
import { startSshd, type Sshd, type SshdOptions } from './sshd.ts';

// One ssh_exec behind a real registry, with every ssh path in a temp folder: an ssh config whose
// alias `testbox` points at the test sshd, a user known_hosts, and the app's own known-hosts file.
// `useSshWorld` registers the hooks that start the sshd and give each test a world of its own.

export class ScriptedApprover implements Approver {
  readonly questions: ApprovalQuestion[] = [];
  answer: 'once' | 'deny';

  constructor(answer: 'once' | 'deny') {
    this.answer = answer;
  }

  async ask(question: ApprovalQuestion) {
    this.questions.push(question);
    return this.answer;
  }
}

export class WatchingSink extends StatusRecorder {
  onEvent: (event: StatusEvent) => void = () => {};

  override emit(event: StatusEvent): void {
    super.emit(event);
    this.onEvent(event);
  }
}

export interface SshWorld {
  dir: string;
  paths: SshPaths;
  /** Writes the ssh config: alias `testbox` with the given identity file. */
  configure(identityFile: string | null, extra?: string[]): Promise<void>;
  /** Trusts the sshd's host key in the user's known_hosts. */
  trustHost(): Promise<void>;
  setup(options?: { approver?: Approver; tool?: SshExecOptions }): ReturnType<typeof buildRegistry>;
  dispose(): Promise<void>;
}

export interface SshFixture {
  /** The sshd of the file or describe block, started once for all its tests. */
  readonly sshd: Sshd;
  /** The current test's world. */
  readonly world: SshWorld;
}

/**
 * Registers, in the file or describe block it is called in, the hooks of an ssh test: one sshd for
 * all its tests, and a fresh world for each test (the sshd's host key already trusted when
 * `trustHost`), disposed after it. Read `sshd` and `world` inside hooks and tests only.
 */
export function useSshWorld(options: { trustHost: boolean; sshd?: SshdOptions }): SshFixture {
  let sshd: Sshd | undefined;
  let world: SshWorld | undefined;
  beforeAll(async () => {
    sshd = await startSshd(options.sshd);
  });
  afterAll(async () => {
    await started(sshd, 'sshd').stop();
  });
  beforeEach(async () => {
    world = await sshWorld(started(sshd, 'sshd'));
    if (options.trustHost) await world.trustHost();
  });
  afterEach(async () => {
    await started(world, 'world').dispose();
  });
  return {
    get sshd() {
      return started(sshd, 'sshd');
    },
    get world() {
      return started(world, 'world');
    },
  };
}

function started<T>(value: T | undefined, name: string): T {
  if (value === undefined)
    throw new Error(
      `The ssh test ${name} is not set up: read it inside a test or hook of the block that called useSshWorld.`,
    );
  return value;
}

async function sshWorld(sshd: Sshd): Promise<SshWorld> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ssh-world-')));
  const paths: SshPaths = {
    home: dir,
    config: path.join(dir, 'ssh_config'),
    knownHosts: [path.join(dir, 'known_hosts')],
    appKnownHosts: path.join(dir, 'app', 'known_hosts'),
    agentSocket: undefined,
  };
  const built: ReturnType<typeof buildRegistry>[] = [];
  const world: SshWorld = {
    dir,
    paths,
    async configure(identityFile, extra = []) {
      const lines = [
        'Host testbox',
        '  HostName 127.0.0.1',
        `  Port ${sshd.port}`,
        `  User ${sshd.user}`,
        ...(identityFile ? [`  IdentityFile ${identityFile}`] : []),
        ...extra.map((line) => `  ${line}`),
        '',
      ];
      await writeFile(paths.config, lines.join('\n'));
    },
    async trustHost() {
      await writeFile(paths.knownHosts[0]!, `${sshd.knownHostsLine}\n`);
    },
    setup(options = {}) {
      const result = buildRegistry(dir, { ...options, tool: { paths, killGraceMs: 300, ...options.tool } });
      built.push(result);
      return result;
    },
    async dispose() {
      await Promise.all(built.map((entry) => entry.pool.closeAll()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  await world.configure(sshd.clientKey);
  return world;
}

function buildRegistry(dir: string, options: { approver?: Approver; tool: SshExecOptions }) {
  const sink = new WatchingSink();
  const approver = options.approver ?? new ScriptedApprover('deny');
  const gate = new PermissionGate(ALLOW_ALL, approver);
  const registry = new ToolRegistry({ workspace: dir, sessionDir: dir, sink, gate });
  const { tool, pool } = createSshExec(options.tool);
  registry.register(tool);
  let calls = 0;
  const run = (args: Record<string, unknown>, signal?: AbortSignal) => {
    calls += 1;
    return registry.call({ callId: `ssh-${calls}`, name: 'ssh_exec', args, ...(signal ? { signal } : {}) });
  };
  return { registry, sink, gate, pool, run };
}
