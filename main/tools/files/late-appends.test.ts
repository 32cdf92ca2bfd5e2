import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileChangedError, identityOf, writeFileAtomic, type FileIdentity } from './atomic-write.ts';
import { EXACT_FD_PATHS } from './confined-fs.ts';
import { carryLateAppendsNow, finishLateAppends } from './late-appends.ts';

// A program that opened a file by path (`echo … >> log`: open, then write) just before the file
// is replaced, and is descheduled until after the write returned: its line reaches the replaced
// version. Here that program is a descriptor opened before the write and written after it.

let folder: string;
let target: string;
const opened: number[] = [];

beforeEach(async () => {
  folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-late-')));
  target = path.join(folder, 'log.txt');
});

afterEach(async () => {
  finishLateAppends();
  for (const fd of opened.splice(0)) closeSync(fd);
  await rm(folder, { recursive: true, force: true });
});

/** Opens `file` for appending, as a shell's `>>` does. */
function openForAppend(file: string): number {
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
  opened.push(fd);
  return fd;
}

async function versionOf(file: string): Promise<FileIdentity> {
  return identityOf(await stat(file, { bigint: true }));
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** The process warnings `act` leads to (emitted on the next tick). */
async function warningsWhile(act: () => void): Promise<Error[]> {
  const warnings: Error[] = [];
  const listen = (warning: Error): number => warnings.push(warning);
  process.on('warning', listen);
  try {
    act();
    await until(async () => warnings.length > 0);
  } finally {
    process.off('warning', listen);
  }
  return warnings;
}

describe('lines appended to a replaced file after the write returned', () => {
  it('are carried to the end of the new file shortly after, by themselves', async () => {
    await writeFile(target, 'version 1\n');
    const late = openForAppend(target);
    await writeFileAtomic(target, Buffer.from('version 2\n'), { expect: await versionOf(target) });
    writeSync(late, 'late line\n');
    // No call made here: the watch carries it on its own (the test's timeout bounds the wait).
    await until(async () => (await readFile(target, 'utf8')).includes('late line'));
    expect(await readFile(target, 'utf8')).toBe('version 2\nlate line\n');
  });

  it('reach the newest file through a chain of writes, exactly once', async () => {
    await writeFile(target, 'version 1\n');
    const first = openForAppend(target);
    await writeFileAtomic(target, Buffer.from('version 2\n'), { expect: await versionOf(target) });
    const second = openForAppend(target);
    await writeFileAtomic(target, Buffer.from('version 3\n'), { expect: await versionOf(target) });
    writeSync(first, 'into version 1\n');
    writeSync(second, 'into version 2\n');
    carryLateAppendsNow();
    carryLateAppendsNow();
    finishLateAppends();
    const text = await readFile(target, 'utf8');
    expect(text.startsWith('version 3\n')).toBe(true);
    expect(
      text
        .split('\n')
        .filter((line) => line.startsWith('into '))
        .sort(),
    ).toEqual(['into version 1', 'into version 2']);
  });

  it('make the next write that read the file before them refuse, with nothing lost', async () => {
    await writeFile(target, 'version 1\n');
    const late = openForAppend(target);
    await writeFileAtomic(target, Buffer.from('version 2\n'), { expect: await versionOf(target) });
    const read = await versionOf(target);
    writeSync(late, 'late line\n');
    carryLateAppendsNow();
    await expect(writeFileAtomic(target, Buffer.from('version 3\n'), { expect: read })).rejects.toThrow(
      FileChangedError,
    );
    expect(await readFile(target, 'utf8')).toBe('version 2\nlate line\n');
  });

  it('are reported, not written into a file another program put in its place', async () => {
    await writeFile(target, 'version 1\n');
    const late = openForAppend(target);
    await writeFileAtomic(target, Buffer.from('version 2\n'), { expect: await versionOf(target) });
    await writeFile(path.join(folder, 'theirs.txt'), 'their file\n');
    await rename(path.join(folder, 'theirs.txt'), target);
    const warnings = await warningsWhile(() => {
      writeSync(late, 'late line\n');
      carryLateAppendsNow();
    });
    expect(await readFile(target, 'utf8')).toBe('their file\n');
    expect(warnings[0]?.message).toMatch(/log\.txt was written, but 10 bytes .* are in neither file/);
  });

  it.runIf(EXACT_FD_PATHS)('are watched for at most 64 replaced files at once, descriptors included', async () => {
    const open = async (): Promise<number> => (await readdir('/proc/self/fd')).length;
    const before = await open();
    for (let index = 0; index < 80; index += 1) {
      const file = path.join(folder, `file-${index}.txt`);
      await writeFile(file, 'version 1\n');
      await writeFileAtomic(file, Buffer.from('version 2\n'), { expect: await versionOf(file) });
    }
    // Two descriptors a watch (the replaced file and the new one); a few more may be closing.
    expect((await open()) - before).toBeLessThanOrEqual(2 * 64 + 4);
    expect((await open()) - before).toBeGreaterThan(2 * 32);
    finishLateAppends();
    await until(async () => (await open()) <= before);
  });

  it.runIf(EXACT_FD_PATHS)('are reported, not written into the new file once it was moved away', async () => {
    await writeFile(target, 'version 1\n');
    const late = openForAppend(target);
    await writeFileAtomic(target, Buffer.from('version 2\n'), { expect: await versionOf(target) });
    // Out of the folder it was confined to, say: nothing may be written to it there.
    await rename(target, path.join(folder, 'moved.txt'));
    const warnings = await warningsWhile(() => {
      writeSync(late, 'late line\n');
      carryLateAppendsNow();
    });
    expect(await readFile(path.join(folder, 'moved.txt'), 'utf8')).toBe('version 2\n');
    expect(warnings[0]?.message).toMatch(/replaced, moved or removed by another program/);
  });
});
