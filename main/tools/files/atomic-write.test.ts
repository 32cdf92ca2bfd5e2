import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.ts';
import { tempNameFor, tempWriter } from './temp-files.ts';

let folder: string;

beforeEach(async () => {
  folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-atomic-')));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces a file with the new bytes', async () => {
    const target = path.join(folder, 'a.txt');
    await writeFile(target, 'old');
    await writeFileAtomic(target, Buffer.from('new'));
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readdir(folder)).toEqual(['a.txt']);
  });

  it('writes pieces one after another, more of them than one writev takes, empty ones included', async () => {
    const target = path.join(folder, 'pieces.txt');
    await writeFile(target, 'old');
    const pieces = Array.from({ length: 3000 }, (_, index) => Buffer.from(index % 7 === 0 ? '' : `${index},`));
    await writeFileAtomic(target, pieces);
    expect(await readFile(target)).toEqual(Buffer.concat(pieces));
  });

  it('removes its temp file and leaves the target as it was when the final rename fails', async () => {
    // A real failure after the temp file is written: a folder cannot be replaced by a file.
    const target = path.join(folder, 'taken');
    await mkdir(target);
    await writeFile(path.join(target, 'inside.txt'), 'still here');
    await expect(writeFileAtomic(target, Buffer.from('data'))).rejects.toThrow();
    expect(await readdir(folder)).toEqual(['taken']);
    expect(await readFile(path.join(target, 'inside.txt'), 'utf8')).toBe('still here');
  });

  it('gives a new file the default mode less the umask, or the mode asked for', async () => {
    const plain = path.join(folder, 'plain.txt');
    const locked = path.join(folder, 'locked.txt');
    await writeFileAtomic(plain, Buffer.from('x'));
    await writeFileAtomic(locked, Buffer.from('x'), { mode: 0o600 });
    const umask = process.umask();
    expect((await stat(plain)).mode & 0o777).toBe(0o666 & ~umask);
    expect((await stat(locked)).mode & 0o777).toBe(0o600);
  });

  it('writes a file whose name is at the file-name limit', async () => {
    const target = path.join(folder, 'n'.repeat(255));
    await writeFileAtomic(target, Buffer.from('long name'));
    expect(await readFile(target, 'utf8')).toBe('long name');
  });

  it('names its temp file after the target and its writer, hidden', () => {
    const temp = tempNameFor('/some/where/file.txt');
    expect(temp).toMatch(new RegExp(`^\\.file\\.txt\\.aether-${process.pid}-[0-9a-f]{8}\\.tmp$`));
    expect(tempWriter(temp)).toBe(process.pid);
    expect(tempWriter('.file.txt.0123456789ab.tmp')).toBeNull();
  });
});
