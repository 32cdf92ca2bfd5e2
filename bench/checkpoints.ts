import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckpointStore } from '../main/tools/checkpoints/checkpoint-store.ts';
import { compare, fmt, mib, time } from './measure.ts';

// What a checkpoint before a call costs on a 10 000-file workspace with one file changed, beside
// the shadow-repository way (`git add -A && git commit` with its own GIT_DIR and GIT_WORK_TREE)
// measured on the same files in the same run; and what 100 checkpoints of a 1 MiB change take on
// disk in each (random bytes: the worst case, which neither compresses). Ours: the stat cache,
// the watch of the workspace's folders and packs (main/tools/checkpoints/).

const FILES = 10_000;
const PER_FOLDER = 50;
const RUNS = 15;
const STORAGE_ROUNDS = 100;

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-checkpoints-'));
  try {
    const workspace = path.join(root, 'ws');
    const past = new Date(Date.now() - 3600_000);
    for (let index = 0; index < FILES; index += 1) {
      const folder = path.join(workspace, `pkg${Math.floor(index / 1000)}`, `dir${Math.floor(index / PER_FOLDER)}`);
      if (index % PER_FOLDER === 0) await mkdir(folder, { recursive: true });
      const file = path.join(folder, `file${index}.ts`);
      await writeFile(file, `export const value${index} = ${index};\n`.repeat(20));
      // Files the person wrote a while ago, as in a real workspace (recent ones are read again).
      await utimes(file, past, past);
    }
    const changed = path.join(workspace, 'pkg0', 'dir0', 'file0.ts');
    let edits = 0;
    const edit = (): Promise<void> => writeFile(changed, `export const edit = ${(edits += 1)};\n`);

    const store = await CheckpointStore.open(path.join(root, 'session', 'checkpoints'), workspace);
    const git = (...args: string[]): void => {
      // gc.auto=0: no gc left running in the background while the folder is removed.
      execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'gc.auto=0', ...args], {
        env: { ...process.env, GIT_DIR: path.join(root, 'shadow.git'), GIT_WORK_TREE: workspace },
        stdio: 'ignore',
      });
    };
    git('init', '-q');
    const gitCheckpoint = (): void => {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', 'checkpoint');
    };

    const firstOurs = await time(1, () => store.record('first'));
    const firstGit = await time(1, gitCheckpoint);
    console.log(compare(`first checkpoint, ${FILES} files`, firstOurs, firstGit, 'git add+commit'));

    // Interleaved, so both see the same disk and the same load.
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < RUNS; round += 1) {
      await edit();
      ours.push((await time(1, () => store.record('incremental'))).medianMs);
      await edit();
      theirs.push((await time(1, gitCheckpoint)).medianMs);
    }
    console.log(
      compare(`next checkpoint, 1 of ${FILES} files changed`, median(ours), median(theirs), 'git add+commit'),
    );

    const before = store.storageBytes;
    const gitBefore = Number(
      execFileSync('du', ['-sb', path.join(root, 'shadow.git')])
        .toString()
        .split('\t')[0],
    );
    const big = path.join(workspace, 'data.bin');
    for (let round = 0; round < STORAGE_ROUNDS; round += 1) {
      await writeFile(big, randomBytes(1024 * 1024));
      await store.record('storage');
      gitCheckpoint();
    }
    const gitAfter = Number(
      execFileSync('du', ['-sb', path.join(root, 'shadow.git')])
        .toString()
        .split('\t')[0],
    );
    console.log(
      `${`${STORAGE_ROUNDS} checkpoints of a 1 MiB change`.padEnd(44)} ${mib(store.storageBytes - before).padStart(10)}   ` +
        `git add+commit: ${mib(gitAfter - gitBefore).padStart(10)}   ` +
        `ratio ${((store.storageBytes - before) / (gitAfter - gitBefore)).toPrecision(3)}×`,
    );
    console.log(
      `(first checkpoint target ≤ 2 s: ${fmt(firstOurs.medianMs)}; next ≤ 50 ms: ${fmt(median(ours).medianMs)})`,
    );
    store.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function median(samples: number[]): { medianMs: number; runs: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: sorted.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
