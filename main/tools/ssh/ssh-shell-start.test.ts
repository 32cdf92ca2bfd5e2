import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useSshWorld } from '../../../test/ssh-setup.ts';
import type { ExecRun } from '../exec/exec-output.ts';

// The account's shell reads its start-up files once per command, as for a plain `ssh host command`:
// they can be slow (version managers, conda), and what they define is what the command expects.
// The server's HOME is a temp folder here, so the start-up files are the test's own: .bashrc (read
// by bash under sshd, or through BASH_ENV where bash does not read it for ssh) and .zshenv.

const HOME = mkdtempSync(path.join(os.tmpdir(), 'aether-ssh-home-'));
const STARTS = path.join(HOME, 'starts');
const STARTUP = ['echo "$$" >> "$HOME/starts"', 'greet_from_startup() { echo "hello from the start-up files"; }', ''];
const SHELL = path.basename(os.userInfo().shell ?? '');
const READS_STARTUP_FILES = SHELL === 'bash' || SHELL === 'zsh';

describe("ssh_exec and the account's shell start-up", () => {
  const ssh = useSshWorld({ trustHost: true, sshd: { setEnv: { HOME, BASH_ENV: path.join(HOME, '.bashrc') } } });

  afterAll(() => rmSync(HOME, { recursive: true, force: true }));

  beforeEach(async () => {
    await writeFile(path.join(HOME, '.bashrc'), STARTUP.join('\n'));
    await writeFile(path.join(HOME, '.zshenv'), STARTUP.join('\n'));
    await rm(STARTS, { force: true });
  });

  const starts = async (): Promise<number> =>
    (await readFile(STARTS, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  it.skipIf(!READS_STARTUP_FILES)('starts the shell once per command, reading its start-up files once', async () => {
    const { run: call } = ssh.world.setup();
    for (const index of [1, 2, 3]) {
      const outcome = await call({ host: 'testbox', command: `echo call ${index}` });
      expect((outcome.result as ExecRun).output).toBe(`call ${index}\n`);
      expect(await starts()).toBe(index);
    }
  });

  it.skipIf(!READS_STARTUP_FILES)(
    'runs the command in the shell that read them: their functions are there',
    async () => {
      const { run: call } = ssh.world.setup();
      const outcome = await call({ host: 'testbox', command: 'greet_from_startup' });
      expect(outcome.result).toMatchObject({
        status: 'exited',
        exit_code: 0,
        output: 'hello from the start-up files\n',
      });
    },
  );
});
