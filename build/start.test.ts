import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBinary, missingBinaryMessage } from './start.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function electronPackage(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aether-electron-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('npm start', () => {
  it('finds the binary path.txt names under dist/', async () => {
    const dir = await electronPackage({ 'path.txt': 'electron', 'dist/electron': '' });
    expect(electronBinary(dir, {})).toEqual({ path: path.join(dir, 'dist', 'electron') });
  });

  it('says the binary was never downloaded when path.txt is missing', async () => {
    const dir = await electronPackage({ 'package.json': '{}' });
    expect(electronBinary(dir, {})).toEqual({ missing: expect.stringContaining('never downloaded') });
  });

  it('names the missing binary when path.txt points to nothing', async () => {
    const dir = await electronPackage({ 'path.txt': 'electron' });
    expect(electronBinary(dir, {})).toEqual({ missing: `${path.join(dir, 'dist', 'electron')} is missing` });
  });

  it('follows ELECTRON_OVERRIDE_DIST_PATH as Electron does', async () => {
    const dir = await electronPackage({ 'path.txt': 'electron' });
    const dist = await electronPackage({ electron: '' });
    expect(electronBinary(dir, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toEqual({ path: path.join(dist, 'electron') });
  });

  it('offers the browser panel for the workspace, quoted for the shell', () => {
    const message = missingBinaryMessage('x is missing', "/home/a b/it's");
    expect(message).toContain('the Electron binary is not installed (x is missing)');
    expect(message).toContain(`npm run aether -- serve --workspace '/home/a b/it'\\''s' --open`);
  });

  it('without a binary, stops with the cause and the browser panel instead of a stack trace', async () => {
    const empty = await electronPackage({});
    const workspace = await electronPackage({});
    const run = spawnSync(process.execPath, [path.join(import.meta.dirname, 'start.ts')], {
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, INIT_CWD: workspace },
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('the Electron binary is not installed');
    expect(run.stderr).toContain(`serve --workspace ${workspace} --open`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
