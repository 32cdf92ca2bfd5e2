import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restartArgs, restartEnv, SESSION_HEAP_FLAGS } from '../../bin/session-heap.js';
import { aether } from '../../test/aether-cli.ts';

// The commands that run sessions run with 16 MiB semi-spaces and an old generation that grows by
// half between full collections, in the process the person started.

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-heap-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface Start {
  pid: number;
  execArgv: string[];
  /** MALLOC_ARENA_MAX as this start's environment has it (null: unset). */
  arenas: string | null;
}

/** Each Node start of the command, as a preload sees it: its pid, its own flags, its malloc arenas. */
async function startsOf(args: (folder: string) => string[], env: Record<string, string> = {}): Promise<Start[]> {
  const preload = path.join(folder, 'starts.cjs');
  const starts = path.join(folder, 'starts.jsonl');
  await writeFile(
    preload,
    `require('node:fs').appendFileSync(${JSON.stringify(starts)}, JSON.stringify({ pid: process.pid, execArgv: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX ?? null }) + '\\n');\n`,
  );
  // Started as a shell starts it: no flags of its own.
  const ran = await aether(args(folder), { NODE_OPTIONS: `--require ${preload}`, ...env }, undefined, { bare: true });
  expect(ran).toMatchObject({ code: 0 });
  const lines = (await readFile(starts, 'utf8')).trim().split('\n');
  return lines.map((line) => JSON.parse(line) as Start);
}

/** `aether run` of the demo model in a folder of its own. */
function demoRun(dir: string): string[] {
  return ['run', '--workspace', dir, '--sessions', path.join(dir, 'sessions'), '--model', 'demo', 'Show me around'];
}

describe('the heap of aether', () => {
  it('runs `aether run` with the session heap flags in the same process, its environment kept', async () => {
    const starts = await startsOf(demoRun);
    // The second start ran the preload from NODE_OPTIONS: the environment reached it.
    expect(starts).toHaveLength(2);
    expect(starts[1]!.pid).toBe(starts[0]!.pid);
    expect(starts[0]!.execArgv).toEqual([]);
    expect(starts[1]!.execArgv).toEqual(SESSION_HEAP_FLAGS);
    // Two malloc arenas in the restarted process, none asked of the first.
    expect(starts.map((start) => start.arenas)).toEqual([null, '2']);
  });

  it('keeps the malloc arenas the person set', async () => {
    const starts = await startsOf(demoRun, { MALLOC_ARENA_MAX: '8' });
    expect(starts.map((start) => start.arenas)).toEqual(['8', '8']);
    expect(restartEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
  });

  it('starts a command that runs no session once, as it is', async () => {
    const starts = await startsOf((dir) => ['sessions', '--sessions', path.join(dir, 'sessions')]);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.execArgv).toEqual([]);
  });

  it('keeps a flag the person gave, in the Node options or on the command line, and the flags around it', () => {
    const argv = ['/usr/bin/node', '/app/bin/aether.js', 'serve', '--port', '0'];
    expect(restartArgs({ argv, execArgv: ['--cpu-prof'], nodeOptions: undefined, canExec: true })).toEqual([
      ...SESSION_HEAP_FLAGS,
      '--cpu-prof',
      '/app/bin/aether.js',
      'serve',
      '--port',
      '0',
    ]);
    expect(
      restartArgs({ argv, execArgv: ['--max-semi-space-size=64'], nodeOptions: undefined, canExec: true }),
    ).toEqual(['--heap-growing-percent=50', '--max-semi-space-size=64', '/app/bin/aether.js', 'serve', '--port', '0']);
    expect(
      restartArgs({
        argv,
        execArgv: ['--heap-growing-percent=100'],
        nodeOptions: '--require x.cjs --max-semi-space-size=32',
        canExec: true,
      }),
    ).toBe(null);
    // Windows has no execve: the command runs with V8's own sizes.
    expect(restartArgs({ argv, execArgv: [], nodeOptions: undefined, canExec: false })).toBe(null);
  });
});
