import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  makeSandboxScene,
  PLANTED_KEY,
  removeSandboxScene,
  runSandboxed,
  type SandboxScene,
} from '../../../test/sandbox-setup.ts';

// Each way out the sandbox must close, tried with the real bwrap: the person's files outside the
// workspace stay as they were, secrets stay unread, and the run ends.

let scene: SandboxScene;
beforeEach(async () => {
  scene = await makeSandboxScene();
});
afterEach(async () => {
  await removeSandboxScene(scene);
});

describe('the sandbox', () => {
  it('lets a command write the workspace and read the rest of the system', async () => {
    const run = await runSandboxed(scene, `echo made > inside.txt && cat ${scene.outside}/readme.txt`);
    expect(run.exitCode).toBe(0);
    expect(readFileSync(path.join(scene.workspace, 'inside.txt'), 'utf8')).toBe('made\n');
    expect(run.output).toContain('outside the workspace');
    expect(run.refusal).toBeNull();
  });

  it('refuses a write outside the workspace through ..', async () => {
    const run = await runSandboxed(scene, 'echo pwned > ../outside/written.txt');
    expect(run.exitCode).not.toBe(0);
    expect(existsSync(path.join(scene.outside, 'written.txt'))).toBe(false);
    expect(run.refusal).toContain('outside what the sandbox lets it write');
  });

  it('refuses a write through a link planted in the workspace that leads outside', async () => {
    symlinkSync(scene.outside, path.join(scene.workspace, 'planted'));
    const run = await runSandboxed(scene, 'echo pwned > planted/written.txt; rm -f planted/readme.txt');
    expect(run.exitCode).not.toBe(0);
    expect(existsSync(path.join(scene.outside, 'written.txt'))).toBe(false);
    expect(readFileSync(path.join(scene.outside, 'readme.txt'), 'utf8')).toBe('outside the workspace\n');
  });

  it('refuses a write through /proc/self/root and /proc/1/root', async () => {
    const run = await runSandboxed(
      scene,
      `echo a > /proc/self/root${scene.outside}/a.txt; echo b > /proc/1/root${scene.outside}/b.txt; exit 3`,
    );
    expect(run.exitCode).toBe(3);
    expect(existsSync(path.join(scene.outside, 'a.txt'))).toBe(false);
    expect(existsSync(path.join(scene.outside, 'b.txt'))).toBe(false);
    expect(run.output).toMatch(/Read-only file system/);
  });

  it('gives a setuid program no other user', async () => {
    const program = path.join(scene.outside, 'id-as-nobody');
    copyFileSync('/usr/bin/id', program);
    chownSync(program, 65534, 65534);
    chmodSync(program, 0o4755);
    // Outside the sandbox the bit works (the test means something); inside it must not.
    const unsandboxed = execFileSync(program, ['-u'], { encoding: 'utf8' }).trim();
    expect(unsandboxed).toBe(process.getuid?.() === 0 ? '65534' : unsandboxed);
    const run = await runSandboxed(scene, `${program} -u; grep NoNewPrivs /proc/self/status`);
    expect(run.output.split('\n')[0]).not.toBe('65534');
    expect(run.output).toMatch(/NoNewPrivs:\s+1/);
  });

  it('keeps ~/.ssh, ~/.aws and the app folder unreadable', async () => {
    const run = await runSandboxed(
      scene,
      'cat ~/.ssh/id_ed25519; cat ~/.ssh/id_*; cat ~/.aws/credentials; ls -a ~/.ssh; cat /proc/1/root$HOME/.ssh/id_ed25519',
    );
    expect(run.output).not.toContain(PLANTED_KEY);
    expect(run.output).not.toContain('planted');
    expect(readFileSync(path.join(scene.home, '.ssh', 'id_ed25519'), 'utf8')).toBe(PLANTED_KEY);
  });

  it('reaches no socket on 127.0.0.1 when network is off', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const run = await runSandboxed(
        scene,
        `node -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => console.log('got ' + d)).on('error', (e) => { console.log(e.code); process.exit(7) })"`,
      );
      expect(run.exitCode).toBe(7);
      expect(run.output).toContain('ECONNREFUSED');
      expect(connections).toBe(0);
      expect(run.refusal).toContain('the sandbox has none');
    } finally {
      server.close();
    }
  });

  it("reaches no local daemon's socket it covers: an SSH agent's, a runtime folder's", async () => {
    const runtime = path.join(scene.root, 'run-user');
    mkdirSync(runtime);
    const sockets = [path.join(scene.root, 'agent.sock'), path.join(runtime, 'bus')];
    let connections = 0;
    const servers = sockets.map((socket) => {
      const server = net.createServer((connection) => {
        connections++;
        connection.end('signed\n');
      });
      server.listen(socket);
      return server;
    });
    await Promise.all(servers.map((server) => new Promise((resolve) => server.once('listening', resolve))));
    const reach = sockets
      .map(
        (socket) =>
          `node -e "require('net').connect('${socket}').on('data', (d) => console.log('got ' + d)).on('error', (e) => console.log(e.code))"`,
      )
      .join('; ');
    try {
      // Without covering them, the sandbox reaches both (a socket file is not network).
      const open = await runSandboxed(scene, reach);
      expect(open.output.match(/got signed/g)).toHaveLength(2);
      connections = 0;
      const covered = await runSandboxed(scene, reach, {}, { sockets: [sockets[0]!, runtime] });
      expect(covered.output).not.toContain('got signed');
      expect(covered.output).toMatch(/ECONNREFUSED|ENOENT/);
      expect(connections).toBe(0);
    } finally {
      for (const server of servers) server.close();
    }
  });

  it('ends a command that starts processes without end, at the process limit', async () => {
    const run = await runSandboxed(scene, 'while :; do sleep 60 & done', { max_processes: 40 });
    expect(run.status === 'exited' || run.status === 'signalled').toBe(true);
    expect(run.exitCode).not.toBe(0);
    expect(run.refusal).toContain('more processes than the sandbox allows at once (40)');
  });

  it('stops a temp folder filling past its size', async () => {
    const run = await runSandboxed(scene, 'head -c 16777216 /dev/zero > /tmp/fill', { tmp_mib: 4 });
    expect(run.exitCode).not.toBe(0);
    expect(run.refusal).toContain("the sandbox's /tmp holds 4 MiB");
  });
});
