import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListDirResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

/** Creates files (content = their name) and folders (names ending with '/'). */
async function tree(...names: string[]): Promise<void> {
  for (const name of names) {
    if (name.endsWith('/')) await mkdir(h.at(name), { recursive: true });
    else {
      await mkdir(path.dirname(h.at(name)), { recursive: true });
      await writeFile(h.at(name), name);
    }
  }
}

async function list(args: unknown): Promise<{ result: ListDirResult; content: string }> {
  const outcome = await h.call('list_dir', args);
  if (outcome.isError) throw new Error(outcome.content);
  return { result: outcome.result as ListDirResult, content: outcome.content };
}

const pathsOf = (result: ListDirResult): string[] => result.entries.map((entry) => entry.path);

describe('list_dir', () => {
  it('lists the root one level deep, sorted, folders marked with a slash', async () => {
    await tree('b.txt', 'A.md', 'src/main.ts', 'docs/');
    const { result, content } = await list({});
    expect(pathsOf(result)).toEqual(['A.md', 'b.txt', 'docs/', 'src/']);
    expect(content).toBe('A.md\nb.txt\ndocs/\nsrc/');
    expect(result.path).toBe('.');
    expect(result.truncated).toBe(false);
  });

  it('gives kinds and file sizes', async () => {
    await tree('a.txt', 'src/');
    await symlink('a.txt', h.at('link'));
    const { result, content } = await list({});
    expect(result.entries).toEqual([
      { path: 'a.txt', kind: 'file', size: 5 },
      { path: 'link', kind: 'symlink' },
      { path: 'src/', kind: 'dir' },
    ]);
    expect(content).toContain('link (link)');
  });

  it('lists deeper levels in tree order', async () => {
    await tree('src/b/c.ts', 'src/a.ts', 'z.txt');
    const { result } = await list({ depth: 3 });
    expect(pathsOf(result)).toEqual(['src/', 'src/a.ts', 'src/b/', 'src/b/c.ts', 'z.txt']);
  });

  it('lists a subfolder with paths relative to it', async () => {
    await tree('src/lib/x.ts', 'src/y.ts');
    const { result } = await list({ path: 'src', depth: 2 });
    expect(result.path).toBe('src');
    expect(pathsOf(result)).toEqual(['lib/', 'lib/x.ts', 'y.ts']);
  });

  it('skips .git and what .gitignore files ignore, nested ones relative to their folder', async () => {
    await tree(
      '.git/HEAD',
      '.gitignore',
      'node_modules/pkg/index.js',
      'build/out.js',
      'keep.log',
      'debug.log',
      'src/.gitignore',
      'src/gen/x.ts',
      'src/main.ts',
      'src/notes.tmp',
    );
    await writeFile(h.at('.gitignore'), 'node_modules\nbuild/\n*.log\n!keep.log\n');
    await writeFile(h.at('src/.gitignore'), 'gen/\n*.tmp\n');
    const { result } = await list({ depth: 3 });
    expect(pathsOf(result)).toEqual(['.gitignore', 'keep.log', 'src/', 'src/.gitignore', 'src/main.ts']);
  });

  it('applies the .gitignore of folders above a listed subfolder', async () => {
    await tree('src/a.ts', 'src/a.js');
    await writeFile(h.at('.gitignore'), '*.js\n');
    const { result } = await list({ path: 'src' });
    expect(pathsOf(result)).toEqual(['a.ts']);
  });

  it('lists an ignored folder that is asked for by name', async () => {
    await tree('node_modules/pkg/index.js');
    await writeFile(h.at('.gitignore'), 'node_modules\n');
    const { result } = await list({ path: 'node_modules', depth: 2 });
    expect(pathsOf(result)).toEqual(['pkg/', 'pkg/index.js']);
  });

  it('stops at 500 entries, says so, and keeps the shallow entries', async () => {
    for (const folder of ['a', 'b', 'c']) {
      await mkdir(h.at(folder));
      await Promise.all(
        Array.from({ length: 200 }, (_, index) => writeFile(h.at(`${folder}/f${String(index).padStart(3, '0')}`), '')),
      );
    }
    const { result, content } = await list({ depth: 2 });
    expect(result.entries).toHaveLength(500);
    expect(result.truncated).toBe(true);
    expect(pathsOf(result)).toEqual(expect.arrayContaining(['a/', 'b/', 'c/']));
    expect(content).toContain(
      '(Only the first 500 entries are shown. List a subfolder, or use a smaller depth, to see the rest.)',
    );
  });

  it('does not follow a link to a folder', async () => {
    await tree('real/inner.txt');
    await symlink(h.outside, h.at('out'));
    await writeFile(path.join(h.outside, 'secret.txt'), 'secret');
    const { result } = await list({ depth: 3 });
    expect(pathsOf(result)).toEqual(['out', 'real/', 'real/inner.txt']);
  });

  it('says when a folder is empty', async () => {
    await tree('empty/');
    const { content } = await list({ path: 'empty' });
    expect(content).toBe('empty is empty (or holds only ignored entries).');
  });

  it('points a file to read_file', async () => {
    await tree('a.txt');
    const outcome = await h.call('list_dir', { path: 'a.txt' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe('a.txt is a file, not a folder. Use read_file to read it.');
  });

  it('says a missing folder does not exist', async () => {
    const outcome = await h.call('list_dir', { path: 'nowhere' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('nowhere does not exist');
  });

  it('refuses a depth beyond the maximum', async () => {
    const outcome = await h.call('list_dir', { depth: 9 });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('Invalid arguments for list_dir: depth');
  });
});
