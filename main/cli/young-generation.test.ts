import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restartArgs, SEMI_SPACE_FLAG } from '../../bin/young-generation.js';
import { aether } from '../../test/aether-cli.ts';

// The commands that run sessions run with 16 MiB semi-spaces, V8's young generation sized for one
// model step's garbage rather than by the machine's memory, in the process the person started.

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-young-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Each Node start of the command, as a preload sees it: its pid and its own flags. */
async function startsOf(args: (folder: string) => string[]): Promise<{ pid: number; execArgv: string[] }[]> {
  const preload = path.join(folder, 'starts.cjs');
  const starts = path.join(folder, 'starts.jsonl');
  await writeFile(
    preload,
    `require('node:fs').appendFileSync(${JSON.stringify(starts)}, JSON.stringify({ pid: process.pid, execArgv: process.execArgv }) + '\\n');\n`,
  );
  const ran = await aether(args(folder), { NODE_OPTIONS: `--require ${preload}` });
  expect(ran).toMatchObject({ code: 0 });
  const lines = (await readFile(starts, 'utf8')).trim().split('\n');
  return lines.map((line) => JSON.parse(line) as { pid: number; execArgv: string[] });
}

describe('the young generation of aether', () => {
  it('runs `aether run` with 16 MiB semi-spaces in the same process', async () => {
    const starts = await startsOf((dir) => [
      'run',
      '--workspace',
      dir,
      '--sessions',
      path.join(dir, 'sessions'),
      '--model',
      'demo',
      'Show me around',
    ]);
    expect(starts).toHaveLength(2);
    expect(starts[1]!.pid).toBe(starts[0]!.pid);
    expect(starts[0]!.execArgv).not.toContain(SEMI_SPACE_FLAG);
    expect(starts[1]!.execArgv).toContain(SEMI_SPACE_FLAG);
  });

  it('starts a command that runs no session once, as it is', async () => {
    const starts = await startsOf((dir) => ['sessions', '--sessions', path.join(dir, 'sessions')]);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.execArgv).not.toContain(SEMI_SPACE_FLAG);
  });

  it('keeps a size the person gave, in the Node options or on the command line, and the flags around it', () => {
    const argv = ['/usr/bin/node', '/app/bin/aether.js', 'serve', '--port', '0'];
    expect(restartArgs({ argv, execArgv: ['--cpu-prof'], nodeOptions: undefined, canExec: true })).toEqual([
      SEMI_SPACE_FLAG,
      '--cpu-prof',
      '/app/bin/aether.js',
      'serve',
      '--port',
      '0',
    ]);
    expect(restartArgs({ argv, execArgv: ['--max-semi-space-size=64'], nodeOptions: undefined, canExec: true })).toBe(
      null,
    );
    expect(
      restartArgs({ argv, execArgv: [], nodeOptions: '--require x.cjs --max-semi-space-size=32', canExec: true }),
    ).toBe(null);
    // Windows has no execve: the command runs with V8's own size.
    expect(restartArgs({ argv, execArgv: [], nodeOptions: undefined, canExec: false })).toBe(null);
  });
});
