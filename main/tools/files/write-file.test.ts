import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadFileResult, WriteFileResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

const sha256 = (data: string): string => createHash('sha256').update(data).digest('hex');

describe('write_file', () => {
  it('creates a file and its missing parent folders', async () => {
    const outcome = await h.call('write_file', { path: 'src/deep/new.ts', content: 'export {};\n' });
    expect(outcome.isError).toBe(false);
    expect(await readFile(h.at('src/deep/new.ts'), 'utf8')).toBe('export {};\n');
    expect(outcome.result).toEqual({
      path: 'src/deep/new.ts',
      created: true,
      bytes: 11,
      sha256: sha256('export {};\n'),
    } satisfies WriteFileResult);
    expect(outcome.content).toBe(`Created src/deep/new.ts (11 bytes). sha256: ${sha256('export {};\n')}`);
  });

  it('refuses to overwrite an existing file without its sha256, and says how to get it', async () => {
    await writeFile(h.at('a.txt'), 'keep me\n');
    const outcome = await h.call('write_file', { path: 'a.txt', content: 'clobbered' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain(
      'a.txt already exists. Read it first with read_file, then pass the sha256 it reports as expected_sha256',
    );
    expect(await readFile(h.at('a.txt'), 'utf8')).toBe('keep me\n');
  });

  it('overwrites with the sha256 read_file reported', async () => {
    await writeFile(h.at('a.txt'), 'old\n');
    const read = (await h.call('read_file', { path: 'a.txt' })).result as ReadFileResult;
    const outcome = await h.call('write_file', { path: 'a.txt', content: 'new\n', expected_sha256: read.sha256 });
    expect(outcome.isError).toBe(false);
    expect((outcome.result as WriteFileResult).created).toBe(false);
    expect(outcome.content).toMatch(/^Overwrote a\.txt \(4 bytes\)/);
    expect(await readFile(h.at('a.txt'), 'utf8')).toBe('new\n');
  });

  it('refuses a stale sha256 and leaves the file as it is', async () => {
    await writeFile(h.at('a.txt'), 'changed by someone else\n');
    const outcome = await h.call('write_file', {
      path: 'a.txt',
      content: 'mine',
      expected_sha256: sha256('what I read'),
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain(
      `a.txt changed since it was read: expected sha256 ${sha256('what I read')}, but it is now ${sha256('changed by someone else\n')}`,
    );
    expect(await readFile(h.at('a.txt'), 'utf8')).toBe('changed by someone else\n');
  });

  it('refuses an expected_sha256 for a file that does not exist', async () => {
    const outcome = await h.call('write_file', { path: 'ghost.txt', content: 'x', expected_sha256: sha256('x') });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('ghost.txt does not exist, but expected_sha256 was given');
    expect(await h.namesIn(h.workspace)).toEqual([]);
  });

  it('refuses a malformed sha256 before touching anything', async () => {
    const outcome = await h.call('write_file', { path: 'a.txt', content: 'x', expected_sha256: 'abc' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('expected_sha256: must be the 64 hex digits of a sha256');
  });

  it('refuses to write over a folder', async () => {
    await mkdir(h.at('src'));
    const outcome = await h.call('write_file', { path: 'src', content: 'x' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('src is a folder');
  });

  it('keeps the mode of a file it overwrites and leaves no temp file', async () => {
    await writeFile(h.at('run.sh'), 'echo 1\n');
    await chmod(h.at('run.sh'), 0o700);
    await h.call('write_file', { path: 'run.sh', content: 'echo 2\n', expected_sha256: sha256('echo 1\n') });
    expect((await stat(h.at('run.sh'))).mode & 0o7777).toBe(0o700);
    expect(await h.namesIn(h.workspace)).toEqual(['run.sh']);
  });

  it('asks the gate with the path and the content', async () => {
    const asked = h.registry.get('write_file')?.card?.describe?.({ path: 'sub/a.txt', content: 'hello' }, h);
    expect(asked).toEqual({ title: 'Create sub/a.txt', subtitle: 'a.txt', detail: 'hello', path: 'sub/a.txt' });
  });
});
