import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FolderWatch, OVERFLOW_SUSPECT_EVENTS } from './folder-watch.ts';

// The folder watch on real temp folders: a change names its folder; a flood of events big enough
// that the kernel's queue may have overflowed (its lost events are never told) makes the next
// scan look at everything instead of trusting what arrived.

let root: string;
let watch: FolderWatch;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-folder-watch-'));
  await mkdir(path.join(root, 'ws', 'src'), { recursive: true });
  await mkdir(path.join(root, 'ws', 'big'), { recursive: true });
  watch = new FolderWatch(path.join(root, 'ws'), path.join(root, 'barriers'));
  for (const folder of ['', 'src', 'big']) watch.watch(folder);
});

afterEach(async () => {
  watch.close();
  await rm(root, { recursive: true, force: true });
});

it.runIf(process.platform === 'linux')(
  'names the folder of a change, and stops trusting itself after a flood of events',
  async () => {
    expect(await watch.take()).toEqual({ listed: new Set(), subtrees: new Set() });
    await writeFile(path.join(root, 'ws', 'src', 'a.ts'), 'a\n');
    const one = await watch.take();
    expect(one?.listed).toEqual(new Set(['src']));
    expect(one?.subtrees).toEqual(new Set(['src/a.ts']));

    // Each new file is at least one event: more files than the suspect count is more events.
    const files = OVERFLOW_SUSPECT_EVENTS + 1;
    for (let start = 0; start < files; start += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, files - start) }, (_, index) =>
          writeFile(path.join(root, 'ws', 'big', `f${start + index}`), ''),
        ),
      );
    expect(await watch.take()).toBeNull();
    // The flood still counts for the take after (its events may straddle one), then trust returns.
    expect(await watch.take()).toBeNull();
    await writeFile(path.join(root, 'ws', 'src', 'b.ts'), 'b\n');
    expect((await watch.take())?.subtrees).toEqual(new Set(['src/b.ts']));
    expect(watch.reliable).toBe(true);
  },
);
