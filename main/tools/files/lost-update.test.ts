import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadFileResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { startRacingProcess, type RacingProcess } from '../../../test/racing-process.ts';
import { carryLateAppendsNow, finishLateAppends } from './late-appends.ts';

// Another program appends to a file while patch_file and write_file rewrite it: a change made
// between the tool's read and its rename is never overwritten (patch_file re-plans its edits on
// what the file holds now; write_file refuses with the fresh hash). A line the other program writes
// into the replaced version after a write returned is carried over within the grace period
// (late-appends.ts): once that program has exited, carrying what is there now completes the file.

let h: FileToolsHarness;
let appender: RacingProcess | undefined;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await appender?.stop().catch(() => undefined);
  appender = undefined;
  finishLateAppends();
  await h.cleanup();
});

// One line at a time, opened and closed each time (as `echo … >> log` does), about every 5 ms: about
// as often as a patch takes, so most patches overlap an append. Every other line waits 3 ms between
// its open and its write, as a program descheduled there on a busy machine does: the file it opened
// is often replaced meanwhile, and the line reaches the replaced version after the tool returned.
const APPENDER = `
  const fs = require('node:fs');
  const [file] = process.argv.slice(1);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let count = 0;
  (async () => {
    process.stdout.write('ready\\n');
    while (running()) {
      const fd = fs.openSync(file, 'a');
      if (count % 2 === 0) await pause(3);
      fs.writeSync(fd, 'appended ' + count + '\\n');
      fs.closeSync(fd);
      count += 1;
      await pause(count % 2 === 0 ? 2 : 5);
    }
    process.stdout.write(String(count));
  })();
`;

// Enough patches for hundreds of appends to race them; on a machine busy with other fsyncs each
// patch can take a few hundred milliseconds (the appender changes the file faster than one fsync).
const PATCHES = 120;

async function sha256Of(path: string): Promise<string> {
  const read = await h.call('read_file', { path, limit: 1 });
  if (read.isError) throw new Error(read.content);
  return (read.result as ReadFileResult).sha256;
}

function appendedLines(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('appended '));
}

describe('a file another process appends to', () => {
  it(`loses no appended line over ${PATCHES} patches made with a fresh hash`, { timeout: 240_000 }, async () => {
    await writeFile(h.at('log.txt'), 'counter: 0\n');
    appender = await startRacingProcess(APPENDER, [h.at('log.txt')]);
    let patched = 0;
    let stale = 0;
    // At least PATCHES patches, and on until the appender has raced them with as many lines: on a
    // quiet machine the patches can outrun it.
    const racedEnough = async () => appendedLines(await readFile(h.at('log.txt'), 'utf8')).length > PATCHES;
    while (patched < PATCHES || !(await racedEnough())) {
      const sha = await sha256Of('log.txt');
      const outcome = await h.call('patch_file', {
        path: 'log.txt',
        edits: [{ old_text: `counter: ${patched}\n`, new_text: `counter: ${patched + 1}\n` }],
        expected_sha256: sha,
      });
      if (outcome.isError) {
        // Only refusals that say the file changed are allowed, and nothing is written then.
        expect(outcome.content).toMatch(/changed since it was read|kept changing while it was being patched/);
        stale += 1;
      } else patched += 1;
    }
    const appended = Number(await appender.stop());
    appender = undefined;
    carryLateAppendsNow();

    const lines = appendedLines(await readFile(h.at('log.txt'), 'utf8'));
    expect(appended).toBeGreaterThan(PATCHES);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines).toHaveLength(appended);
    expect(patched).toBeGreaterThanOrEqual(PATCHES);
    expect((await readFile(h.at('log.txt'), 'utf8')).startsWith(`counter: ${patched}\n`)).toBe(true);
    // The race really ran: some reads went stale before their patch.
    expect(stale).toBeGreaterThan(0);
  });

  it(
    'loses no appended line when write_file replaces the file with the hash of what it read',
    { timeout: 240_000 },
    async () => {
      await writeFile(h.at('log.txt'), 'version 0\n');
      appender = await startRacingProcess(APPENDER, [h.at('log.txt')]);
      let written = 0;
      let refused = 0;
      while (written < 100) {
        const before = await readFile(h.at('log.txt'));
        const outcome = await h.call('write_file', {
          path: 'log.txt',
          content: before.toString('utf8').replace(/^version \d+/, `version ${written + 1}`),
          expected_sha256: createHash('sha256').update(before).digest('hex'),
        });
        if (outcome.isError) {
          expect(outcome.content).toMatch(
            /changed since it was read|changed by another program while it was being written/,
          );
          refused += 1;
        } else written += 1;
      }
      const appended = Number(await appender.stop());
      appender = undefined;
      carryLateAppendsNow();

      const lines = appendedLines(await readFile(h.at('log.txt'), 'utf8'));
      expect(new Set(lines).size).toBe(lines.length);
      expect(lines).toHaveLength(appended);
      expect(refused).toBeGreaterThan(0);
    },
  );
});
