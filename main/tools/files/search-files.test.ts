import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchFilesResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { LONG_LINES, searchFile } from './search-files.ts';

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

async function put(name: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(h.at(name)), { recursive: true });
  await writeFile(h.at(name), content);
}

async function search(args: unknown): Promise<{ result: SearchFilesResult; content: string }> {
  const outcome = await h.call('search_files', args);
  if (outcome.isError) throw new Error(outcome.content);
  return { result: outcome.result as SearchFilesResult, content: outcome.content };
}

const hits = (result: SearchFilesResult): string[] => result.matches.map((match) => `${match.path}:${match.line}`);

describe('search_files', () => {
  it('finds a regular expression line by line, with workspace-relative paths', async () => {
    await put('src/a.ts', 'const x = 1;\nfunction foo() {}\nfoo();\n');
    await put('b.md', 'no match here\n');
    const { result, content } = await search({ pattern: 'foo\\(' });
    expect(result.matches).toEqual([
      { path: 'src/a.ts', line: 2, text: 'function foo() {}' },
      { path: 'src/a.ts', line: 3, text: 'foo();' },
    ]);
    expect(result.files_searched).toBe(2);
    expect(content).toBe('src/a.ts:2: function foo() {}\nsrc/a.ts:3: foo();');
  });

  it('searches within a folder, and a single file', async () => {
    await put('src/a.ts', 'needle\n');
    await put('lib/b.ts', 'needle\n');
    expect(hits((await search({ pattern: 'needle', path: 'src' })).result)).toEqual(['src/a.ts:1']);
    expect(hits((await search({ pattern: 'needle', path: 'lib/b.ts' })).result)).toEqual(['lib/b.ts:1']);
  });

  it('filters by a glob on the file name or on the path', async () => {
    await put('src/a.ts', 'needle\n');
    await put('src/a.test.ts', 'needle\n');
    await put('src/deep/c.ts', 'needle\n');
    await put('notes.md', 'needle\n');
    expect(hits((await search({ pattern: 'needle', glob: '*.ts' })).result).sort()).toEqual([
      'src/a.test.ts:1',
      'src/a.ts:1',
      'src/deep/c.ts:1',
    ]);
    expect(hits((await search({ pattern: 'needle', glob: 'src/deep/**' })).result)).toEqual(['src/deep/c.ts:1']);
    expect(hits((await search({ pattern: 'needle', glob: '*.test.ts' })).result)).toEqual(['src/a.test.ts:1']);
  });

  it('ignores case when asked', async () => {
    await put('a.txt', 'Hello\nhello\n');
    expect(hits((await search({ pattern: 'HELLO' })).result)).toEqual([]);
    expect(hits((await search({ pattern: 'HELLO', ignore_case: true })).result)).toEqual(['a.txt:1', 'a.txt:2']);
  });

  it('refuses an invalid pattern with a clear error', async () => {
    const outcome = await h.call('search_files', { pattern: 'foo(' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('The pattern is not a valid regular expression');
  });

  it('stops at 100 matches and says so', async () => {
    await put('many.txt', 'hit\n'.repeat(150));
    const { result, content } = await search({ pattern: 'hit' });
    expect(result.matches).toHaveLength(100);
    expect(result.truncated).toBe(true);
    expect(content).toContain(
      '(Only the first 100 matches are shown. Narrow the pattern, path or glob to see the rest.)',
    );
  });

  it('is not truncated at exactly 100 matches', async () => {
    await put('many.txt', 'hit\n'.repeat(100));
    expect((await search({ pattern: 'hit' })).result.truncated).toBe(false);
  });

  it('cuts a long line to 500 characters around the match', async () => {
    await put('min.js', `${'a'.repeat(3000)}NEEDLE${'b'.repeat(3000)}\n`);
    const { result } = await search({ pattern: 'NEEDLE' });
    const text = result.matches[0]?.text ?? '';
    expect(text).toContain('NEEDLE');
    expect(text.replace(/…/g, '')).toHaveLength(500);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });

  it('finds matches in a 16 MB line with no newline, across its windows, cut to 500 characters', async () => {
    const size = 16 * 1024 * 1024;
    const line = Buffer.alloc(size, 'abcdefgh');
    // One needle straddles the end of the first window, one lies near the end of the file.
    line.write('NEEDLE', LONG_LINES.windowChars - 3);
    line.write('NEEDLE', size - 1000);
    await put('bundle.min.js', line);
    await put('after.js', `${'x'.repeat(10)}\nNEEDLE here\n`);
    const { result } = await search({ pattern: 'NEEDLE', glob: '*.js' });
    expect(hits(result).sort()).toEqual(['after.js:2', 'bundle.min.js:1']);
    const text = result.matches.find((match) => match.path === 'bundle.min.js')?.text ?? '';
    expect(text).toContain('NEEDLE');
    expect(text.replace(/…/g, '')).toHaveLength(500);
    expect(text.startsWith('…') && text.endsWith('…')).toBe(true);
  });

  it('finds the last needle of a huge line and numbers the lines after it', async () => {
    const head = 'abcdefgh'.repeat(LONG_LINES.windowChars / 2);
    await put('huge.txt', `${head}NEEDLE tail\nshort\nNEEDLE again\n`);
    const { result } = await search({ pattern: 'NEEDLE tail|NEEDLE again' });
    expect(hits(result)).toEqual(['huge.txt:1', 'huge.txt:3']);
    expect(result.matches[0]?.text.endsWith('NEEDLE tail')).toBe(true);
  });

  it('respects .gitignore and skips .git', async () => {
    await put('.gitignore', 'dist/\n*.gen.ts\n');
    await put('.git/config', 'needle\n');
    await put('dist/out.js', 'needle\n');
    await put('src/x.gen.ts', 'needle\n');
    await put('src/x.ts', 'needle\n');
    expect(hits((await search({ pattern: 'needle' })).result)).toEqual(['src/x.ts:1']);
  });

  it('skips binary files', async () => {
    await put('blob.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
    await put('text.txt', 'needle\n');
    const { result } = await search({ pattern: 'needle' });
    expect(hits(result)).toEqual(['text.txt:1']);
    expect(result.files_searched).toBe(1);
  });

  it('does not follow links, so nothing outside the workspace is read', async () => {
    await writeFile(path.join(h.outside, 'secret.txt'), 'needle\n');
    await symlink(path.join(h.outside, 'secret.txt'), h.at('secret-link.txt'));
    await symlink(h.outside, h.at('outside-dir'));
    const { result } = await search({ pattern: 'needle' });
    expect(result.matches).toEqual([]);
  });

  it('streams a large file and keeps line numbers right across reads', async () => {
    const lines = Array.from({ length: 40_000 }, (_, index) =>
      index === 31_337 ? 'the needle line' : `filler ${index} ${'x'.repeat(index % 50)}`,
    );
    await put('big.log', `${lines.join('\n')}\nneedle at the end without newline`);
    const { result } = await search({ pattern: 'needle' });
    expect(hits(result)).toEqual(['big.log:31338', 'big.log:40001']);
  });

  it('searches a spilled output file in the session folder by its absolute path', async () => {
    const spilled = path.join(h.sessionDir, 'tool-output', 'call-7.txt');
    await mkdir(path.dirname(spilled), { recursive: true });
    await writeFile(spilled, 'first\nerror: disk full\nlast\n');
    const { result } = await search({ pattern: '^error', path: spilled });
    expect(result.matches).toEqual([{ path: spilled, line: 2, text: 'error: disk full' }]);
  });

  it('says when nothing matches', async () => {
    await put('a.txt', 'x\n');
    const { content } = await search({ pattern: 'nothing' });
    expect(content).toBe('No matches for /nothing/ in 1 file searched.');
  });
});

describe('search_files on lines longer than a window', () => {
  const limits = { windowChars: 1000, overlap: 50 };
  const matchIn = async (content: string, pattern: string) => {
    await put('long.txt', content);
    const outcome = await searchFile(h.at('long.txt'), new RegExp(pattern), 100, new AbortController().signal, limits);
    return outcome?.hits ?? [];
  };

  it('finds a match that straddles a window edge, once, with the line around it', async () => {
    const found = await matchIn(`${'a'.repeat(995)}NEEDLE${'b'.repeat(5000)}\nNEEDLE\n`, 'NEEDLE');
    expect(found.map((hit) => hit.line)).toEqual([1, 2]);
    expect(found[0]?.text).toMatch(/^…a+NEEDLEb+…$/);
  });

  it('does not take a window start for the line start', async () => {
    expect(await matchIn(`${'a'.repeat(3000)}${'b'.repeat(3000)}\n`, '^b')).toEqual([]);
    expect(await matchIn(`${'b'.repeat(3000)}\n`, '^b')).toHaveLength(1);
  });

  it('does not take a window end for the line end', async () => {
    expect(await matchIn(`${'a'.repeat(5000)}b\n`, 'a$')).toEqual([]);
    expect((await matchIn(`${'b'.repeat(5000)}a\r\n`, 'a\r?$'))[0]?.text).toMatch(/^…b+a$/);
  });

  it('finds a match in the last, newline-less window of a file', async () => {
    const found = await matchIn(`${'a'.repeat(4321)}NEEDLE`, 'NEEDLE');
    expect(found).toEqual([{ line: 1, text: `…${'a'.repeat(500 - 'NEEDLE'.length)}NEEDLE` }]);
  });
});
