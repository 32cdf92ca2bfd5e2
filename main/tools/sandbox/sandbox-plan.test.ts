import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES } from '../../../protocol/sandbox.ts';
import { bwrapArgs } from './bwrap-args.ts';
import { hostAllowed } from './network-proxy.ts';
import { programFolder } from './sandbox-launch.ts';
import { localDaemonSockets, planSandbox, type SandboxPlan } from './sandbox-plan.ts';
import { sandboxRefusal } from './sandbox-refusal.ts';
import { probeSandboxSupport, unavailableNotice } from './sandbox-support.ts';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'sandbox-plan-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a sandbox plan', () => {
  it('hides the secrets that exist, following a link to where it leads', async () => {
    const home = path.join(root, 'home');
    await mkdir(path.join(home, '.aws'), { recursive: true });
    await mkdir(path.join(root, 'keys'));
    await symlink(path.join(root, 'keys'), path.join(home, '.ssh'));
    await writeFile(path.join(home, '.netrc'), 'machine x password y');
    const plan = planSandbox(DEFAULT_SANDBOX_RULES, { workspace: root, cwd: root, home });
    expect(plan.hidden).toEqual(
      expect.arrayContaining([
        { path: path.join(root, 'keys'), directory: true },
        { path: path.join(home, '.aws'), directory: true },
        { path: path.join(home, '.netrc'), directory: false },
      ]),
    );
    expect(plan.hidden.some((secret) => secret.path.endsWith('.gnupg'))).toBe(false);
  });

  it('expands ~/ in the writable folders and drops those that do not exist or hold secrets', async () => {
    const home = path.join(root, 'home');
    await mkdir(path.join(home, '.npm'), { recursive: true });
    await mkdir(path.join(home, '.ssh', 'sub'), { recursive: true });
    const rules = { ...DEFAULT_SANDBOX_RULES, writable: ['~/.npm', '~/.cache', '~/.ssh/sub'] };
    const plan = planSandbox(rules, { workspace: root, cwd: root, home });
    expect(plan.writable).toEqual([path.join(home, '.npm')]);
  });

  it('keeps the workspace hooks and the app folder read-only, and secrets last in the arguments', async () => {
    const ws = path.join(root, 'ws');
    await mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
    await mkdir(path.join(root, 'home', '.ssh'), { recursive: true });
    const plan = planSandbox(DEFAULT_SANDBOX_RULES, { workspace: ws, cwd: ws, home: path.join(root, 'home') });
    expect(plan.readOnly).toEqual([path.join(ws, '.git', 'hooks')]);
    const args = bwrapArgs(plan, ['sh', '-c', 'true']);
    const workspaceBind = args.indexOf('--bind');
    const hooks = args.lastIndexOf(path.join(ws, '.git', 'hooks'));
    const secret = args.lastIndexOf(path.join(root, 'home', '.ssh'));
    expect(workspaceBind).toBeGreaterThan(args.indexOf('/tmp'));
    expect(hooks).toBeGreaterThan(workspaceBind);
    expect(secret).toBeGreaterThan(hooks);
    expect(args.slice(-4)).toEqual(['--', 'sh', '-c', 'true']);
    expect(args).toContain('--unshare-all');
    expect(args).not.toContain('--share-net');
  });
});

describe('a program inside /tmp', () => {
  it('runs in the sandbox: its folder is bound back over the private /tmp', async () => {
    const support = probeSandboxSupport();
    expect(support.available, 'bubblewrap must be installed: npm test checks for it first').toBe(true);
    if (!support.available) return;
    // A checkout under /tmp, or an AppImage mounted there, holds the Node that runs the sandbox's bridge.
    const folder = await realpath(await mkdtemp('/tmp/sandbox-program-'));
    try {
      await mkdir(path.join(folder, 'bin'));
      const program = path.join(folder, 'bin', 'echo');
      await copyFile('/bin/echo', program);
      const plan = planSandbox(DEFAULT_SANDBOX_RULES, { workspace: root, cwd: root, home: path.join(root, 'home') });
      const run = (options: Parameters<typeof bwrapArgs>[2]) =>
        spawnSync(support.program, bwrapArgs(plan, [program, 'ran'], options), { encoding: 'utf8' });
      expect(run({}).stderr).toContain('No such file or directory');
      const ran = run({ programFolders: [folder] });
      expect(ran.stderr).toBe('');
      expect(ran.stdout).toBe('ran\n');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe("a program's folder", () => {
  it('is the prefix of PREFIX/bin/node, else the folder holding the program', () => {
    expect(programFolder('/usr/bin/node')).toBe('/usr');
    expect(programFolder('/tmp/play/node_modules/node/bin/node')).toBe('/tmp/play/node_modules/node');
    expect(programFolder('/tmp/.mount_AEtherXy12/aethercodex')).toBe('/tmp/.mount_AEtherXy12');
  });
});

describe('the network allow-list', () => {
  it('matches a host, a *. suffix and a host:port', () => {
    const allow = ['registry.npmjs.org', '*.github.com', '127.0.0.1:4873'];
    expect(hostAllowed('registry.npmjs.org', 443, allow)).toBe(true);
    expect(hostAllowed('REGISTRY.npmjs.org.', 80, allow)).toBe(true);
    expect(hostAllowed('evil-registry.npmjs.org', 443, allow)).toBe(false);
    expect(hostAllowed('api.github.com', 443, allow)).toBe(true);
    expect(hostAllowed('github.com', 443, allow)).toBe(false);
    expect(hostAllowed('notgithub.com', 443, allow)).toBe(false);
    expect(hostAllowed('127.0.0.1', 4873, allow)).toBe(true);
    expect(hostAllowed('127.0.0.1', 22, allow)).toBe(false);
  });
});

describe('what the sandbox refused', () => {
  const plan: SandboxPlan = {
    workspace: '/ws',
    cwd: '/ws',
    writable: ['/home/me/.npm'],
    hidden: [],
    readOnly: [],
    tmpBytes: 4 * 1048576,
    maxProcesses: 64,
    network: [],
  };
  const seen = { refusedHosts: [], tooManyProcesses: false };

  it('names the path a write outside tried', () => {
    expect(sandboxRefusal(plan, { ...seen, output: "touch: cannot touch '/etc/x': Read-only file system" })).toBe(
      'The sandbox stopped it: it tried to write /etc/x, outside what the sandbox lets it write (the workspace, /tmp, /home/me/.npm).',
    );
    expect(sandboxRefusal(plan, { ...seen, output: "Error: EROFS: read-only file system, open '/usr/x'" })).toContain(
      'write /usr/x,',
    );
  });

  it('names the hosts the proxy refused, or the missing network', () => {
    expect(sandboxRefusal(plan, { ...seen, refusedHosts: ['example.com:443'], output: '' })).toContain(
      "it tried to reach example.com:443, not on the sandbox's network allow-list",
    );
    expect(sandboxRefusal(plan, { ...seen, output: 'npm error code ENOTFOUND' })).toContain('the sandbox has none');
  });

  it('says nothing of a command that failed on its own', () => {
    expect(sandboxRefusal(plan, { ...seen, output: 'test failed: expected 2, got 3' })).toBeNull();
  });
});

describe('where the sandbox cannot start', () => {
  it('says so on Windows, with what to do', () => {
    const support = probeSandboxSupport({ platform: 'win32' });
    expect(support).toMatchObject({ available: false, reason: 'The sandbox is not available on Windows.' });
    if (!support.available) expect(unavailableNotice(support)).toContain('asks before every command');
  });

  it('names the package to install when bwrap is missing', () => {
    const support = probeSandboxSupport({ platform: 'linux', bwrap: path.join(root, 'no-bwrap') });
    expect(support).toMatchObject({ available: false, reason: 'bubblewrap (bwrap) is not installed.' });
    if (!support.available) expect(support.fix).toContain('sudo apt install bubblewrap');
  });

  it('names how to enable user namespaces when bwrap cannot make one', async () => {
    // A bwrap that fails as the real one does on a kernel without unprivileged user namespaces.
    const failing = path.join(root, 'bwrap');
    await writeFile(failing, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const support = probeSandboxSupport({ platform: 'linux', bwrap: failing });
    expect(support).toMatchObject({
      available: false,
      reason: 'bubblewrap could not start a sandbox: bwrap: No permissions to create new namespace',
    });
    if (!support.available) expect(support.fix).toMatch(/sysctl|user namespaces/);
  });

  it('finds the real bwrap here and starts it', () => {
    expect(probeSandboxSupport({ platform: 'linux' })).toMatchObject({ available: true, mechanism: 'bubblewrap' });
  });
});

describe("local daemons' sockets", () => {
  it("names the SSH agent's, the runtime folder, Docker's and Podman's, and only absolute paths", () => {
    const env = {
      SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
      XDG_RUNTIME_DIR: '/run/user/1000',
      DOCKER_HOST: 'unix:///home/me/.colima/docker.sock',
    };
    expect(localDaemonSockets(env, '/home/me')).toEqual([
      '/tmp/ssh-x/agent.1',
      '/run/user/1000',
      '/home/me/.colima/docker.sock',
      '/run/docker.sock',
      '/var/run/docker.sock',
      '/run/podman/podman.sock',
      '/home/me/.docker/run/docker.sock',
    ]);
    const elsewhere = localDaemonSockets({ SSH_AUTH_SOCK: 'agent.sock', DOCKER_HOST: 'tcp://10.0.0.2:2375' }, '/h');
    expect(elsewhere).toEqual([
      '/run/docker.sock',
      '/var/run/docker.sock',
      '/run/podman/podman.sock',
      '/h/.docker/run/docker.sock',
    ]);
  });
});
