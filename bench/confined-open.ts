import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../main/tools/files/atomic-write.ts';
import { EXACT_FD_PATHS, openVerified } from '../main/tools/files/confined-fs.ts';
import { compare, type Timing } from './measure.ts';

// What checking confinement at the moment of use costs: an open verified through the kernel's
// name for the descriptor against a plain O_NOFOLLOW open, and an atomic write through a verified
// folder (sweep, temp file checked, change check, rename, re-check) against a plain temp + fsync +
// rename of the same bytes (folder synced too, as the write did before).

const OPENS = 2000;
const WRITES = 50;

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-confined-'));
  try {
    const folder = path.join(root, 'ws', 'src', 'deep');
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, 'file.ts');
    await writeFile(file, 'export const x = 1;\n');
    const flags = constants.O_RDONLY | constants.O_NONBLOCK;

    const data = Buffer.alloc(64 * 1024, 120);
    const plainWrite = async (): Promise<void> => {
      const temp = `${file}.tmp`;
      const handle = await open(temp, 'w');
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
      await rename(temp, file);
      // The durable rename, as before: the folder is synced too.
      const parent = await open(folder, constants.O_RDONLY);
      await parent.sync();
      await parent.close();
    };
    // Interleaved, so both see the same disk and the same load.
    const [verified, plain] = await interleaved(
      OPENS,
      async () => (await openVerified(file, flags, 'file.ts')).close(),
      async () => (await open(file, flags | constants.O_NOFOLLOW)).close(),
    );
    const [atomic, baseline] = await interleaved(
      WRITES,
      () => writeFileAtomic(file, data, { shown: 'file.ts' }),
      plainWrite,
    );

    console.log(`confinement at the moment of use (${EXACT_FD_PATHS ? 'exact, /proc/self/fd' : 'narrowed, by path'})`);
    console.log(`  ${compare('open, verified', verified, plain, 'plain O_NOFOLLOW open')}`);
    console.log(
      `  ${compare('atomic write of 64 KiB, verified folder', atomic, baseline, 'temp, fsync, rename, folder fsync')}`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Runs `ours` and `baseline` alternately, `runs` times each: their median times. */
async function interleaved(
  runs: number,
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<[Timing, Timing]> {
  const samples: [number[], number[]] = [[], []];
  for (let run = 0; run < runs; run += 1) {
    for (const [index, body] of [ours, baseline].entries()) {
      const start = performance.now();
      await body();
      samples[index as 0 | 1].push(performance.now() - start);
    }
  }
  const median = (values: number[]): Timing => {
    values.sort((a, b) => a - b);
    return { medianMs: values[Math.floor(values.length / 2)] ?? 0, runs };
  };
  return [median(samples[0]), median(samples[1])];
}
