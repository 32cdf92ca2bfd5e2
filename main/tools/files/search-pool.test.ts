import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchFilesResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { SEARCH_THREADS, searchWorkersStarted } from './search-runner.ts';

// Parallel searches share a small pool of worker threads: a search beyond the pool waits for a
// worker to finish instead of starting one of its own.

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
  for (let file = 0; file < 30; file += 1)
    await writeFile(h.at(`module-${file}.ts`), `export const value${file} = ${file};\nconst other = 'x';\n`);
});

afterEach(async () => {
  await h.cleanup();
});

describe('the search worker pool', { timeout: 30_000 }, () => {
  it('runs 20 parallel searches on at most SEARCH_THREADS workers, each with its own result', async () => {
    const before = searchWorkersStarted();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) => h.call('search_files', { pattern: `value${index}\\b` })),
    );

    expect(searchWorkersStarted() - before).toBeLessThanOrEqual(SEARCH_THREADS);
    expect(SEARCH_THREADS).toBeLessThanOrEqual(4);
    outcomes.forEach((outcome, index) => {
      expect(outcome.isError).toBe(false);
      expect((outcome.result as SearchFilesResult).matches).toEqual([
        { path: `module-${index}.ts`, line: 1, text: `export const value${index} = ${index};` },
      ]);
    });
  });

  it('reuses the same workers for the next round of searches', async () => {
    await Promise.all(Array.from({ length: 8 }, () => h.call('search_files', { pattern: 'other' })));
    const before = searchWorkersStarted();
    await Promise.all(Array.from({ length: 8 }, () => h.call('search_files', { pattern: 'other' })));

    expect(searchWorkersStarted()).toBe(before);
  });

  it('a search stopped while it waits for a worker is cancelled, and the others finish', async () => {
    let calls = 0;
    const call = (signal?: AbortSignal) =>
      h.registry.call({
        callId: `pool-${(calls += 1)}`,
        name: 'search_files',
        args: { pattern: 'value1\\b' },
        ...(signal ? { signal } : {}),
      });
    const running = Array.from({ length: SEARCH_THREADS * 3 }, () => call());
    const stop = new AbortController();
    const waitingOne = call(stop.signal);
    stop.abort();

    expect(await waitingOne).toMatchObject({ isError: true });
    for (const outcome of await Promise.all(running)) {
      expect(outcome.isError).toBe(false);
      expect((outcome.result as SearchFilesResult).matches).toHaveLength(1);
    }
  });
});
