import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aetherEnv, aetherNodeArgs } from '../../test/aether-cli.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';

// `aether run` sweeps the temp files a killed writer left in the workspace before its turn starts.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let root: string;
let server: FixtureServer | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-sweep-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

describe('aether run', () => {
  it('removes the temp files of a writer that is gone before the turn starts', async () => {
    const workspace = path.join(root, 'ws');
    await mkdir(path.join(workspace, 'src'), { recursive: true });
    const leftover = `.main.ts.aether-${await deadPid()}-0badf00d.tmp`;
    await writeFile(path.join(workspace, 'src', leftover), 'half a file');
    await writeFile(path.join(workspace, 'src', 'main.ts'), 'kept\n');
    server = await startFixtureServer({ script: { steps: [{ text: ['Done.'] }] } });

    const child = spawn(
      process.execPath,
      [
        ...aetherNodeArgs('run'),
        'run',
        '--workspace',
        workspace,
        '--sessions',
        path.join(root, 'sessions'),
        '--model',
        `compat:${server.baseURL}#fixture`,
        'Hello',
      ],
      { cwd: repo, env: { ...aetherEnv('run'), ...process.env, AETHERCODEX_SESSIONS: '' }, stdio: 'ignore' },
    );
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(0);
    expect(await readdir(path.join(workspace, 'src'))).toEqual(['main.ts']);
  });
});
