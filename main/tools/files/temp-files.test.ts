import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { STALE_AFTER_MS, sweepWorkspace } from './temp-files.ts';

// A write killed mid-way (SIGKILL, power loss) leaves its temp file behind. Temp files carry their
// writer's pid, so the next write to that folder, and the sweep at start, remove the ones whose
// writer is gone, and leave a live writer's and the person's own files alone.

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

const ATOMIC_WRITE = fileURLToPath(new URL('./atomic-write.ts', import.meta.url));
const TEMP = /\.aether-\d+-[0-9a-f]{8}\.tmp$/;

/** A real process writing `bytes` to `target` with writeFileAtomic, killed with SIGKILL once its temp file exists. */
async function killedMidWrite(target: string, bytes: number): Promise<void> {
  const program = `
    import { writeFileAtomic } from ${JSON.stringify(ATOMIC_WRITE)};
    await writeFileAtomic(${JSON.stringify(target)}, Buffer.alloc(${bytes}, 120));
    process.stdout.write('finished');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit');
  const folder = path.dirname(target);
  const pid = String(child.pid);
  for (;;) {
    const names = await readdir(folder);
    if (names.some((name) => name.includes(`.aether-${pid}-`))) break;
    if (child.exitCode !== null) throw new Error(`The writer finished before it could be killed: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill('SIGKILL');
  await exited;
  expect(output).toBe('');
}

const leftovers = async (folder: string): Promise<string[]> =>
  (await readdir(folder)).filter((name) => TEMP.test(name));

describe('temp files of a write killed with SIGKILL', () => {
  it('are left behind, then swept by the next write to that folder', { timeout: 60_000 }, async () => {
    await writeFile(h.at('big.bin'), 'old contents\n');
    await killedMidWrite(h.at('big.bin'), 256 * 1024 * 1024);
    const [left] = await leftovers(h.workspace);
    expect(left).toBeDefined();
    expect(await readFile(h.at('big.bin'), 'utf8')).toBe('old contents\n');

    const outcome = await h.call('write_file', { path: 'other.txt', content: 'next write\n' });
    expect(outcome.isError).toBe(false);
    expect(await leftovers(h.workspace)).toEqual([]);
    expect(await h.namesIn(h.workspace)).toEqual(['big.bin', 'other.txt']);
  });

  it('are swept at start in the folders of the workspace', { timeout: 60_000 }, async () => {
    await mkdir(h.at('src/deep'), { recursive: true });
    await killedMidWrite(h.at('src/deep/data.bin'), 64 * 1024 * 1024);
    expect(await leftovers(h.at('src/deep'))).toHaveLength(1);
    const removed = await sweepWorkspace(h.workspace);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatch(/^src\/deep\/\.data\.bin\.aether-\d+-[0-9a-f]{8}\.tmp$/);
    expect(await readdir(h.at('src/deep'))).toEqual([]);
  });
});

describe('the sweep', () => {
  it("keeps a live writer's temp file, the person's look-alikes, and removes one older than any write", async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const live = `.data.txt.aether-${sleeper.pid}-0a1b2c3d.tmp`;
      const abandoned = `.old.txt.aether-${sleeper.pid}-4e5f6a7b.tmp`;
      const mine = '.data.txt.0123456789ab.tmp';
      for (const name of [live, abandoned, mine]) await writeFile(h.at(name), 'partial');
      // A live pid with a temp file older than any write can take: the pid was reused.
      const old = new Date(Date.now() - STALE_AFTER_MS - 60_000);
      await utimes(h.at(abandoned), old, old);

      await h.call('write_file', { path: 'next.txt', content: 'x' });
      expect(await h.namesIn(h.workspace)).toEqual([live, mine, 'next.txt'].sort());
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
