import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ScriptedApprover, useSshWorld } from '../../../test/ssh-setup.ts';
import { RefuseApprover } from '../permission-gate.ts';

// Host keys and authentication against a real sshd: nothing is ever accepted silently.

const run = promisify(execFile);
const ssh = useSshWorld({ trustHost: false });
let hostFingerprint: string;

beforeAll(async () => {
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${ssh.sshd.dir}/host_ed25519.pub`]);
  hostFingerprint = stdout.split(' ')[1]!;
});

describe('ssh_exec host keys', () => {
  it('asks about an unknown host key, showing its SHA256 fingerprint, and refuses when denied', async () => {
    const approver = new ScriptedApprover('deny');
    const { run: call } = ssh.world.setup({ approver });
    const outcome = await call({ host: 'testbox', command: 'echo should-not-run' });
    expect(approver.questions).toHaveLength(1);
    expect(approver.questions[0]!.request.detail).toContain(`ssh-ed25519 ${hostFingerprint}`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Refused: the host key of .* is not known and was not approved/);
    expect(outcome.content).toContain(hostFingerprint);
    expect(outcome.content).not.toContain('should-not-run');
    await expect(readFile(ssh.world.paths.appKnownHosts, 'utf8')).rejects.toThrow();
  });

  it('remembers an approved host key in the app known-hosts file and does not ask again', async () => {
    const approver = new ScriptedApprover('once');
    const first = await ssh.world.setup({ approver }).run({ host: 'testbox', command: 'echo first' });
    expect(first.content).toMatch(/^Exit code 0 · .*\nfirst\n$/);
    expect(await readFile(ssh.world.paths.appKnownHosts, 'utf8')).toBe(`${ssh.sshd.knownHostsLine}\n`);

    // A fresh pool (a new connection) that could not ask anyone still gets in.
    const headless = ssh.world.setup({ approver: new RefuseApprover(() => 'nobody to ask') });
    const second = await headless.run({ host: 'testbox', command: 'echo second' });
    expect(second.content).toMatch(/^Exit code 0 · .*\nsecond\n$/);
    expect(approver.questions).toHaveLength(1);
  });

  it('refuses an unknown host key when nobody can answer (headless)', async () => {
    const { run: call } = ssh.world.setup({ approver: new RefuseApprover(() => 'nobody to ask') });
    const outcome = await call({ host: 'testbox', command: 'true' });
    expect(outcome.content).toMatch(/^Refused: the host key .* not approved/);
  });

  it('accepts a host listed under a hashed name in the user known_hosts', async () => {
    await ssh.world.trustHost();
    await run('ssh-keygen', ['-H', '-f', ssh.world.paths.knownHosts[0]!]);
    expect(await readFile(ssh.world.paths.knownHosts[0]!, 'utf8')).toMatch(/^\|1\|/);
    const approver = new ScriptedApprover('deny');
    const outcome = await ssh.world.setup({ approver }).run({ host: 'testbox', command: 'echo hashed' });
    expect(outcome.content).toMatch(/\nhashed\n$/);
    expect(approver.questions).toEqual([]);
  });

  it('refuses a changed host key without asking, showing both fingerprints', async () => {
    // The known_hosts line claims another ed25519 key for this host and port.
    const impostor = (await readFile(`${ssh.sshd.strangerKey}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ');
    await writeFile(ssh.world.paths.knownHosts[0]!, `[127.0.0.1]:${ssh.sshd.port} ${impostor}\n`);
    const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${ssh.sshd.strangerKey}.pub`]);
    const expectedFingerprint = stdout.split(' ')[1]!;
    const approver = new ScriptedApprover('once');
    const outcome = await ssh.world.setup({ approver }).run({ host: 'testbox', command: 'echo should-not-run' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Refused: the host key of .* has changed/);
    expect(outcome.content).toContain(hostFingerprint);
    expect(outcome.content).toContain(expectedFingerprint);
    expect(approver.questions).toEqual([]);
  });
});

describe('ssh_exec connection failures', () => {
  it('rejects a key the server does not accept, saying what to do', async () => {
    await ssh.world.trustHost();
    await ssh.world.configure(ssh.sshd.strangerKey);
    const outcome = await ssh.world.setup().run({ host: 'testbox', command: 'true' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(
      /^Authentication to .*127\.0\.0\.1:\d+ failed: the server accepted none of .*stranger_ed25519/,
    );
    expect(outcome.content).toMatch(/never uses passwords/);
  });

  it('reports a refused port as such', async () => {
    await ssh.world.trustHost();
    const port = await closedPort();
    const outcome = await ssh.world.setup().run({ host: `${ssh.sshd.user}@testbox:${port}`, command: 'true' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe(
      `Could not connect to ${ssh.sshd.user}@127.0.0.1:${port}: connection refused. Is sshd running there, on port ${port}?`,
    );
  });
});

/** A port that was free a moment ago: nothing listens on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}
