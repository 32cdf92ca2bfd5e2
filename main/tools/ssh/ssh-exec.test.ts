import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ScriptedApprover, useSshWorld } from '../../../test/ssh-setup.ts';
import type { ExecRun } from '../exec/exec-output.ts';
import { closeSshConnections } from './ssh-pool.ts';

const run = promisify(execFile);
const ssh = useSshWorld({ trustHost: true });

/** Asks the host, over a connection of its own, which processes match; polls until none or gives up. */
async function remainingOnHost(pattern: string): Promise<string> {
  const checker = ssh.world.setup();
  let found = '';
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const outcome = await checker.run({ host: 'testbox', command: `pgrep -f '${pattern}' || echo none` });
    found = (outcome.result as ExecRun | undefined)?.output.trim() ?? outcome.content;
    if (found === 'none') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await checker.pool.closeAll();
  return found;
}

describe('ssh_exec against a real sshd', () => {
  it('streams output in the order it was written and reports the exit code', async () => {
    const { run: call, sink } = ssh.world.setup();
    const outcome = await call({
      host: 'testbox',
      command: 'echo one; sleep 0.4; echo two >&2; sleep 0.4; echo three; exit 5',
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Exit code 5 · /);
    expect(outcome.content.endsWith('\none\ntwo\nthree\n')).toBe(true);
    const texts = sink.ofType('tool_progress').map((event) => event.progress.text);
    expect(texts[0]).toBe('one\n');
    // Every report carries everything so far: each one extends the one before.
    texts.slice(1).forEach((text, index) => expect(text.startsWith(texts[index]!)).toBe(true));
    expect(texts.at(-1)).toBe('one\ntwo\nthree\n');
  });

  it('runs through user@host:port with the default key under ~/.ssh, and reports exit code 0', async () => {
    await mkdir(path.join(ssh.world.dir, '.ssh'));
    await copyFile(ssh.sshd.clientKey, path.join(ssh.world.dir, '.ssh', 'id_ed25519'));
    const { run: call } = ssh.world.setup();
    const outcome = await call({ host: `${ssh.sshd.user}@127.0.0.1:${ssh.sshd.port}`, command: 'printf done' });
    expect(outcome).toMatchObject({ isError: false, content: expect.stringMatching(/^Exit code 0 · .*\ndone$/) });
    expect((outcome.result as ExecRun).host).toBe(`${ssh.sshd.user}@127.0.0.1:${ssh.sshd.port}`);
  });

  it('says how to authenticate when there is neither an agent nor a key', async () => {
    const { run: call } = ssh.world.setup();
    const outcome = await call({ host: `${ssh.sshd.user}@127.0.0.1:${ssh.sshd.port}`, command: 'true' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^No way to authenticate to .*ssh-add/);
  });

  it('reuses one connection per host and caps concurrent channels', async () => {
    const { run: call, pool } = ssh.world.setup({ tool: { pool: { maxChannels: 2 } } });
    const outcomes = await Promise.all(
      [1, 2, 3, 4, 5].map((index) => call({ host: 'testbox', command: `sleep 0.2; echo ${index}` })),
    );
    // Each call's own output, wherever it is among the lines: the account's shell start-up may print
    // too (a login script racing another session over its own files writes to stderr).
    expect(outcomes.map((outcome, index) => outcome.content.split('\n').includes(String(index + 1)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(pool.counters).toEqual({ connectionsOpened: 1, peakChannels: 2 });
  });

  it('closes pooled connections on request, so a one-shot process can exit, and reconnects when used again', async () => {
    const { run: call, pool } = ssh.world.setup();
    await call({ host: 'testbox', command: 'true' });
    await closeSshConnections();
    const again = await call({ host: 'testbox', command: 'echo again' });
    expect(again.content).toMatch(/\nagain\n$/);
    expect(pool.counters.connectionsOpened).toBe(2);
  });

  it('stops the remote process when the call is cancelled, as a second connection confirms', async () => {
    const { run: call, sink } = ssh.world.setup();
    const controller = new AbortController();
    sink.onEvent = (event) => {
      if (event.type === 'tool_progress' && event.progress.text.includes('started')) controller.abort();
    };
    const outcome = await call({ host: 'testbox', command: 'echo started; sleep 4242; echo never' }, controller.signal);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Cancelled and stopped/);
    expect(outcome.content).toContain('started');
    expect(await remainingOnHost('slee[p] 4242')).toBe('none');
  });

  it('stops the remote process on timeout, keeping the partial output', async () => {
    const { run: call } = ssh.world.setup();
    const outcome = await call({
      host: 'testbox',
      command: 'echo started; sleep 4343 & sleep 4344; echo never',
      timeout_s: 3,
    });
    expect(outcome.content).toMatch(/^Timed out and stopped/);
    expect(outcome.content.endsWith('\nstarted\n')).toBe(true);
    expect(await remainingOnHost('slee[p] 434[34]')).toBe('none');
  });

  it('ends a command whose link dropped as connection lost with the exit status unknown', async () => {
    const { run: call, sink } = ssh.world.setup();
    sink.onEvent = (event) => {
      if (event.type !== 'tool_progress' || !event.progress.text.includes('started')) return;
      // Cut the link: kill the sshd processes serving this connection.
      for (const pid of ssh.sshd.connectionPids()) process.kill(pid, 'SIGKILL');
    };
    const outcome = await call({ host: 'testbox', command: 'echo started; sleep 4545; echo never' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Connection to .*127\.0\.0\.1.* lost .*exit status unknown/);
    expect(outcome.content).not.toMatch(/Exit code 0/);
    expect(sink.ofType('tool_completed')[0]?.result).toMatchObject({
      status: 'connection_lost',
      exit_code: null,
      error: expect.any(String),
      output: 'started\n',
    });
    await killOrphans('slee[p] 4545');
  });

  it('echoes to the card the host, how the command ended and its output', async () => {
    const { run: call, sink } = ssh.world.setup();
    await call({ host: 'testbox', command: 'printf "a\\nb\\n"; exit 4' });
    const completed = sink.ofType('tool_completed')[0];
    expect(completed).toMatchObject({
      is_error: true,
      result: {
        command: 'printf "a\\nb\\n"; exit 4',
        host: `${ssh.sshd.user}@127.0.0.1:${ssh.sshd.port}`,
        status: 'exited',
        exit_code: 4,
        output: 'a\nb\n',
        output_lines: 2,
        output_cut: false,
      },
    });
  });

  it('opens a fresh connection for the next call after a link dropped', async () => {
    const { run: call, sink, pool } = ssh.world.setup();
    sink.onEvent = (event) => {
      if (event.type === 'tool_progress' && event.progress.text.includes('started'))
        for (const pid of ssh.sshd.connectionPids()) process.kill(pid, 'SIGKILL');
    };
    await call({ host: 'testbox', command: 'echo started; sleep 4646' });
    sink.onEvent = () => {};
    const after = await call({ host: 'testbox', command: 'echo back' });
    expect(after.content).toMatch(/^Exit code 0 · .*\nback\n$/);
    expect(pool.counters.connectionsOpened).toBe(2);
    await killOrphans('slee[p] 4646');
  });

  it('authenticates through ssh-agent when no key file is configured', async () => {
    const socket = path.join(ssh.world.dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    try {
      await waitFor(() => exists(socket));
      await run('ssh-add', [ssh.sshd.clientKey], { env: { SSH_AUTH_SOCK: socket } });
      await ssh.world.configure(null);
      const { run: call } = ssh.world.setup({ tool: { paths: { ...ssh.world.paths, agentSocket: socket } } });
      const outcome = await call({ host: 'testbox', command: 'echo via agent' });
      expect(outcome.content).toMatch(/^Exit code 0 · .*\nvia agent\n$/);
    } finally {
      agent.kill('SIGTERM');
    }
  });

  it('asks the gate with the host and exactly the command', async () => {
    const approver = new ScriptedApprover('deny');
    const { run: call, gate } = ssh.world.setup({ approver });
    gate.setRule('ssh', 'ask');
    const outcome = await call({ host: 'testbox', command: 'sudo systemctl restart "web app"' });
    expect(outcome.isError).toBe(true);
    expect(approver.questions.map((question) => question.request)).toEqual([
      {
        title: 'Run a command on testbox',
        detail: 'sudo systemctl restart "web app"',
        scope: 'ssh',
        // "Always" would allow exactly this command on this host.
        always_rules: ['ssh(testbox:sudo systemctl restart "web app")'],
        // The preview copies this workspace: a command on another machine has none.
        preview_unavailable: 'No preview: the command runs on testbox, and a preview only copies this workspace.',
      },
    ]);
  });
});

function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('gave up waiting');
}

/** The link test leaves its remote command orphaned on this machine; end it by pid. */
async function killOrphans(pattern: string): Promise<void> {
  const { stdout } = await run('pgrep', ['-f', pattern]).catch(() => ({ stdout: '' }));
  for (const pid of stdout.split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
