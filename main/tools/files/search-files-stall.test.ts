import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchFilesResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { DEFAULT_STALL_LIMIT_MS } from './search-runner.ts';

// A pattern that backtracks catastrophically: `(a+)+$` against a line of 40 a's and a `!` tries
// about 2^40 ways to split the a's before it fails. On the main thread it would freeze the app for
// days; in the search worker it holds only that worker.

const CATASTROPHIC = '(a+)+$';

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
  await writeFile(h.at('evil.txt'), `fine\n${'a'.repeat(40)}!\n`);
  await writeFile(h.at('plain.txt'), 'needle in a haystack\n');
});

afterEach(async () => {
  await h.cleanup();
});

let calls = 0;
function call(args: unknown, signal?: AbortSignal) {
  calls += 1;
  return h.registry.call({ callId: `stall-${calls}`, name: 'search_files', args, ...(signal ? { signal } : {}) });
}

describe('search_files with a catastrophic pattern', { timeout: 30_000 }, () => {
  it('keeps the main thread free: another call completes while it matches, and Stop ends it', async () => {
    // Two finished searches leave two workers waiting, so the second call below does not wait for
    // a thread to start while the stuck one counts towards its matching limit.
    await Promise.all([call({ pattern: 'warm' }), call({ pattern: 'up' })]);
    const stop = new AbortController();
    let stuckSettled = false;
    const stuck = call({ pattern: CATASTROPHIC, path: 'evil.txt' }, stop.signal).finally(() => (stuckSettled = true));

    const other = await call({ pattern: 'needle', path: 'plain.txt' });
    expect(other.isError).toBe(false);
    expect((other.result as SearchFilesResult).matches).toEqual([
      { path: 'plain.txt', line: 1, text: 'needle in a haystack' },
    ]);
    expect(stuckSettled).toBe(false);

    stop.abort();
    const stopped = await stuck;
    expect(stopped).toMatchObject({
      isError: true,
      content: 'Cancelled: search_files was stopped before it finished.',
    });
  });

  it('stops at the matching limit with an error naming the limit, the file and what to do', async () => {
    const outcome = await call({ pattern: CATASTROPHIC });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe(
      `search_files stopped: matching /${CATASTROPHIC}/ kept the search busy for more than ${DEFAULT_STALL_LIMIT_MS / 1000} s on evil.txt ` +
        '(the limit for one stretch of matching), so the pattern probably backtracks catastrophically. ' +
        'Avoid nested repetition such as (a+)+ or (.*)*, anchor the pattern, or search for a plainer piece of the text.',
    );
  });

  it('searches as usual after a search was stopped', async () => {
    await call({ pattern: CATASTROPHIC, path: 'evil.txt' });
    const outcome = await call({ pattern: 'a{40}!', ignore_case: true });
    expect((outcome.result as SearchFilesResult).matches.map((match) => `${match.path}:${match.line}`)).toEqual([
      'evil.txt:2',
    ]);
  });
});
