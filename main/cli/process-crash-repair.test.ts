import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aether, startAether } from '../../test/aether-cli.ts';
import { isRunning, killStill, pidIn } from '../../test/processes.ts';
import { makeTempWorkspace, type TempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';

// A host killed outright (SIGKILL) while a background process ran: the next run that opens the
// session ends what the dead host left running (the start sweep) and records the process as
// stopped when the app closed, so the log no longer says it runs.

let temp: TempWorkspace;
let server: FixtureServer | undefined;
const started: number[] = [];

beforeEach(async () => {
  temp = await makeTempWorkspace('aether-process-crash-');
});

afterEach(async () => {
  killStill(started);
  await server?.close();
  server = undefined;
  await rm(temp.root, { recursive: true, force: true });
});

describe('a session whose host died with a background process running', () => {
  it('is repaired on reopening: the process ended by the sweep and recorded as stopped when the app closed', async () => {
    const bgFile = path.join(temp.root, 'bg.pid');
    const fgFile = path.join(temp.root, 'fg.pid');
    server = await startFixtureServer({
      script: {
        steps: [
          {
            tool_calls: [
              { id: 'c1', name: 'exec', args: { command: `echo $$ > ${bgFile}; exec sleep 1000`, background: true } },
            ],
          },
          { tool_calls: [{ id: 'c2', name: 'exec', args: { command: `echo $$ > ${fgFile}; exec sleep 1000` } }] },
          { text: ['Resumed.'] },
        ],
      },
    });
    const where = [
      '--workspace',
      temp.workspace,
      '--sessions',
      temp.sessionsRoot,
      '--model',
      `compat:${server.baseURL}#fixture`,
    ];
    const host = startAether(['run', ...where, '--allow', 'exec', 'Start it']);
    const background = await pidIn(bgFile);
    const foreground = await pidIn(fgFile);
    started.push(background, foreground);
    host.child.kill('SIGKILL');
    await host.done;
    expect([background, foreground].filter(isRunning)).toEqual([background, foreground]);

    const next = await aether(['run', ...where, '--continue', 'Go on']);

    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/^■ p1 stopped when the app closed after .* · echo \$\$ >/m);
    expect([background, foreground].filter(isRunning)).toEqual([]);
    const log = readFileSync(next.stdout.match(/Session: (.*\.jsonl)/)![1]!, 'utf8');
    const states = log
      .split('\n')
      .filter((line) => line.includes('"process_state"'))
      .map(
        (line) => (JSON.parse(line) as { event: { process: { state: string; end_reason?: string } } }).event.process,
      );
    expect(states.map((state) => [state.state, state.end_reason])).toEqual([
      ['running', undefined],
      ['stopped', 'app_closed'],
    ]);
  }, 60_000);
});
