import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyBuiltOutput, FRESH_BUILD_ENV, freshBuildOutput } from './fresh-build.ts';

let root = '';
const PARTS = ['main/index.js', 'main/index.js.map', 'preload/index.cjs', 'renderer/index.html'];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'aether-fresh-build-'));
  for (const part of PARTS) {
    await mkdir(join(root, 'out', part, '..'), { recursive: true });
    await writeFile(join(root, 'out', part), part);
  }
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('freshBuildOutput', () => {
  it('gives out/ when every packed part was written since the build began', () => {
    expect(freshBuildOutput(root, { [FRESH_BUILD_ENV]: String(Date.now() - 60_000) })).toBe(join(root, 'out'));
  });

  it('builds afresh when no npm test build came before (the test run alone)', () => {
    expect(freshBuildOutput(root, {})).toBeNull();
    expect(freshBuildOutput(root, { [FRESH_BUILD_ENV]: 'soon' })).toBeNull();
  });

  it('builds afresh when a part is older than the build, or missing', async () => {
    const since = Date.now() - 60_000;
    const old = new Date(since - 3_600_000);
    await utimes(join(root, 'out', 'renderer', 'index.html'), old, old);
    expect(freshBuildOutput(root, { [FRESH_BUILD_ENV]: String(since) })).toBeNull();
    await rm(join(root, 'out', 'renderer'), { recursive: true });
    expect(freshBuildOutput(root, { [FRESH_BUILD_ENV]: String(since) })).toBeNull();
  });

  it('copies the main process, the preload and the renderer into an app', async () => {
    const app = join(root, 'app', 'out');
    await copyBuiltOutput(join(root, 'out'), app);
    const copied = await readdir(app, { recursive: true });
    expect(copied.filter((entry) => entry.includes('.')).sort()).toEqual(PARTS.sort());
  });
});
