import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useSshWorld, type SshFixture } from '../../../test/ssh-setup.ts';
import type { ExecRun } from '../exec/exec-output.ts';

// Stopping a remote command that ignores SIGHUP and SIGTERM, against the real loopback sshd. The
// tests log in as the user running them; as root, OpenSSH refuses signal requests outright, so only
// the kill over a second channel can stop the command.

const run = promisify(execFile);
const IGNORES_HANGUP = "trap '' HUP TERM; echo started; sleep";

/** Asks the host, over a connection of its own, whether anything matches; polls until none or gives up. */
async function remainingOnHost(ssh: SshFixture, pattern: string): Promise<string> {
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

/** Cancels the call as soon as the command said it started; resolves to the model's text and the card's echo. */
async function cancelOnceStarted(ssh: SshFixture, command: string) {
  const { run: call, sink } = ssh.world.setup();
  const controller = new AbortController();
  sink.onEvent = (event) => {
    if (event.type === 'tool_progress' && event.progress.text.includes('started')) controller.abort();
  };
  const outcome = await call({ host: 'testbox', command }, controller.signal);
  return {
    content: outcome.content,
    echo: sink.ofType('tool_completed')[0]?.result as unknown as Pick<
      ExecRun,
      'status' | 'output' | 'stop_unconfirmed'
    >,
  };
}

describe('ssh_exec stopping a command that ignores hang-up and TERM', () => {
  const ssh = useSshWorld({ trustHost: true });

  it('kills its process group over a second channel, as another connection confirms', async () => {
    const { content, echo } = await cancelOnceStarted(ssh, `${IGNORES_HANGUP} 4848; echo never`);
    expect(content).toMatch(/^Cancelled and stopped/);
    expect(content).not.toContain('could not be confirmed');
    expect(echo).toMatchObject({ status: 'cancelled', output: 'started\n' });
    expect(echo.stop_unconfirmed).toBeUndefined();
    expect(await remainingOnHost(ssh, 'slee[p] 4848')).toBe('none');
  });

  it('keeps the wrapper out of the output: the command prints exactly what it printed', async () => {
    const { run: call } = ssh.world.setup();
    const outcome = await call({ host: 'testbox', command: `printf 'a\\nb'; echo "$0" >/dev/null` });
    expect((outcome.result as ExecRun).output).toBe('a\nb');
  });
});

describe('ssh_exec on a server that allows one session per connection', () => {
  const ssh = useSshWorld({ trustHost: true, sshd: { maxSessions: 1 } });

  it('says on the card that the remote command could not be confirmed gone', async () => {
    try {
      const { content, echo } = await cancelOnceStarted(ssh, `${IGNORES_HANGUP} 4949; echo never`);
      expect(content).toMatch(/^Cancelled and stopped.*\n\[The remote command could not be confirmed stopped: /);
      expect(echo).toMatchObject({
        status: 'cancelled',
        stop_unconfirmed: expect.stringMatching(/refused a second channel .*process group \d+/),
      });
    } finally {
      // The command survived, as the card said: end it here (the sshd runs on this machine).
      const { stdout } = await run('pgrep', ['-f', 'slee[p] 4949']).catch(() => ({ stdout: '' }));
      for (const pid of stdout.split('\n').filter(Boolean).map(Number)) process.kill(pid, 'SIGKILL');
    }
  });
});
