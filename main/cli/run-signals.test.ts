import { constants } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAether } from '../../test/aether-cli.ts';
import { isRunning, killStill, pidIn } from '../../test/processes.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { readSessionFile } from '../session/replay.ts';
import { stopReason } from './exit-signals.ts';

// `aether run`, `aether tool` and `aether serve` ended by a process manager, `timeout` or a closed
// terminal: a command they run (a sleep that wrote its pid) must not outlive them. Real processes.

const temp = useTempWorkspace('aether-signals-');
let server: FixtureServer | undefined;
const started: number[] = [];

afterEach(async () => {
  killStill(started);
  await server?.close();
  server = undefined;
});

/** A command that writes its pid to `file` and then sleeps as that same process. */
function sleeper(file: string): string {
  return `echo $$ > ${file}; exec sleep 1000`;
}

describe('aether run sent a signal while a command runs', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s stops the command, ends the run and records the turn as stopped by it',
    async (signal) => {
      const pidFile = path.join(temp.root, 'sleep.pid');
      server = await startFixtureServer({
        script: {
          steps: [
            { tool_calls: [{ id: 'x1', name: 'exec', args: { command: sleeper(pidFile) } }] },
            { text: ['Not reached.'] },
          ],
        },
      });
      const run = startAether([
        'run',
        '--allow',
        'exec',
        '--workspace',
        temp.workspace,
        '--sessions',
        temp.sessionsRoot,
        '--model',
        `compat:${server.baseURL}#fixture`,
        'Sleep',
      ]);
      const pid = await pidIn(pidFile);
      started.push(pid);

      run.child.kill(signal);
      const ran = await run.done;

      expect(ran.code).toBe(128 + constants.signals[signal]);
      expect(isRunning(pid)).toBe(false);
      const file = /Session: (.+\.jsonl)/.exec(ran.stdout)?.[1];
      if (!file) throw new Error(`no session file in: ${ran.stdout}\n${ran.stderr}`);
      const { events } = await readSessionFile(file);
      expect(events.find((event) => event.type === 'tool_completed')).toMatchObject({ is_error: true });
      expect(events.at(-1)).toMatchObject({
        type: 'turn_failed',
        aborted: true,
        error: stopReason(signal, 'aether run'),
      });
    },
    60_000,
  );
});

describe('aether tool sent a signal while a command runs', () => {
  it('SIGTERM stops the command and the call, and the command ends', async () => {
    const pidFile = path.join(temp.root, 'sleep.pid');
    const call = startAether([
      'tool',
      'exec',
      JSON.stringify({ command: sleeper(pidFile) }),
      '--workspace',
      temp.workspace,
      '--sessions',
      temp.sessionsRoot,
    ]);
    const pid = await pidIn(pidFile);
    started.push(pid);

    call.child.kill('SIGTERM');
    const ran = await call.done;

    expect(ran.code).toBe(128 + constants.signals.SIGTERM);
    expect(isRunning(pid)).toBe(false);
    expect(JSON.parse(ran.stdout)).toMatchObject({ echo: { is_error: true } });
  }, 60_000);
});

describe('aether serve sent a signal', () => {
  it('SIGHUP closes the panel and exits as Ctrl-C does', async () => {
    const serving = startAether(['serve', '--workspace', temp.workspace, '--sessions', temp.sessionsRoot], {
      AETHERCODEX_HOME: temp.root,
    });
    await serving.printed('Open ');

    serving.child.kill('SIGHUP');

    expect((await serving.done).code).toBe(0);
  }, 60_000);
});
