import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aether } from '../../test/aether-cli.ts';
import { isRunning, pidIn } from '../../test/processes.ts';
import { makeTempWorkspace, type TempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';

// What becomes of a background process as `aether run` ends: stopped with the run and said so, or,
// with --keep-processes, left running with its pid and output file printed, its output still
// written after the run has exited. A real shell loop started by the fixture model.

let temp: TempWorkspace;
let server: FixtureServer | undefined;
const groups: number[] = [];

beforeEach(async () => {
  temp = await makeTempWorkspace('aether-keep-processes-');
});

afterEach(async () => {
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  await server?.close();
  server = undefined;
  await rm(temp.root, { recursive: true, force: true });
});

/** Runs a turn in which the model starts a loop in the background that writes its pid and ticks. */
async function runWithLoop(extra: string[]) {
  const pidFile = path.join(temp.root, 'loop.pid');
  const command = `echo $$ > ${pidFile}; i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.1; done`;
  server = await startFixtureServer({
    script: {
      steps: [
        { tool_calls: [{ id: 'c1', name: 'exec', args: { command, background: true } }] },
        { text: ['It runs.'] },
      ],
    },
  });
  const model = `compat:${server.baseURL}#fixture`;
  const ran = await aether([
    'run',
    '--workspace',
    temp.workspace,
    '--sessions',
    temp.sessionsRoot,
    '--model',
    model,
    '--allow',
    'exec',
    ...extra,
    'Start the loop',
  ]);
  const pid = await pidIn(pidFile);
  groups.push(pid);
  return { ran, pid };
}

describe('aether run and the background processes it leaves', () => {
  it('stops them by default and says which flag keeps them', async () => {
    const { ran, pid } = await runWithLoop([]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/■ p1 stopped when the session closed after .* · echo \$\$/);
    expect(ran.stdout).toContain('Background processes end with the run: --keep-processes leaves them running.');
    expect(isRunning(pid)).toBe(false);
  }, 60_000);

  it('leaves them running with --keep-processes, printing pid and output file, the output still written', async () => {
    const { ran, pid } = await runWithLoop(['--keep-processes']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`▷ p1 left running as pid ${pid}`);
    expect(ran.stdout).toContain('Left running (1); stop one and what it started with kill -- -PID:');
    const line = ran.stdout.split('\n').find((text) => text.startsWith(`  p1 echo $$`))!;
    expect(line).toContain(`· pid ${pid} · output: `);
    const file = line.slice(line.indexOf('output: ') + 'output: '.length);
    expect(path.basename(file)).toBe('p1.after.log');
    expect(isRunning(pid)).toBe(true);
    // The run has exited; what the loop prints still reaches the file.
    const ticks = (): number => Number(/tick (\d+)\n(?![\s\S]*tick)/.exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
    const first = await expect.poll(ticks, { timeout: 20_000 }).toBeGreaterThan(0).then(ticks);
    await expect.poll(ticks, { timeout: 20_000 }).toBeGreaterThan(first);
    // The session records it as left running.
    const log = readFileSync(ran.stdout.match(/Session: (.*\.jsonl)/)![1]!, 'utf8');
    expect(log).toMatch(/"type":"process_state".*"state":"left_running"/);
  }, 60_000);
});
