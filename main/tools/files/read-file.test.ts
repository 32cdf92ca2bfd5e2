import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadFileResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { countLines, DEFAULT_SPILL_LIMITS } from '../policies.ts';
import { PAGE_BUDGET } from './read-file.ts';

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

const numbered = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, index) => `line ${from + index}\n`).join('');

describe('read_file', () => {
  it('wraps numbered lines in the path/type/content shape with an end-of-file footer and the sha256', async () => {
    await writeFile(h.at('notes.txt'), 'alpha\nbeta\n');
    const outcome = await h.call('read_file', { path: 'notes.txt' });
    expect(outcome.isError).toBe(false);
    const sha256 = sha256Of('alpha\nbeta\n');
    expect(outcome.content).toBe(
      `<path>notes.txt</path>\n<type>file</type>\n<content>\n1: alpha\n2: beta\n\n(End of file - total 2 lines)\nsha256: ${sha256}\n</content>`,
    );
  });

  it('returns the raw page, its range, the line count and the sha256 of the whole file', async () => {
    const text = 'one\r\ntwo\r\nthree';
    await writeFile(h.at('a.txt'), text);
    const outcome = await h.call('read_file', { path: 'a.txt', offset: 2, limit: 1 });
    expect(outcome.result).toEqual({
      path: 'a.txt',
      range: { start: 2, end: 2 },
      total_lines: 3,
      content: 'two\r\n',
      sha256: createHash('sha256').update(text).digest('hex'),
      truncated: true,
    } satisfies ReadFileResult);
  });

  it('echoes its page as a read-file echo: the structured result without the hash', async () => {
    await writeFile(h.at('a.txt'), 'x\n');
    const outcome = await h.call('read_file', { path: 'a.txt' });
    const { sha256: _hash, ...page } = outcome.result as ReadFileResult;
    expect(outcome.echo.result).toEqual({ kind: 'read-file', ...page });
    expect(outcome.echo.is_error).toBe(false);
  });

  it('pages by lines and says which offset continues, without the output ever spilling', async () => {
    await writeFile(h.at('long.txt'), numbered(2500));
    const first = await h.call('read_file', { path: 'long.txt' });
    const end = PAGE_BUDGET.lines;
    expect(end).toBe(2000);
    expect((first.result as ReadFileResult).range).toEqual({ start: 1, end });
    expect(first.content).toContain(
      `\n${end}: line ${end}\n\n(Showing lines 1-${end} of 2500. Use offset=${end + 1} to continue.)\nsha256: ${sha256Of(numbered(2500))}\n</content>`,
    );
    expect(first.content).not.toContain(`${end + 1}: `);
    // A full page plus its wrapper is over the spill line limit, yet read_file pages itself.
    expect(countLines(first.content)).toBeGreaterThan(DEFAULT_SPILL_LIMITS.maxLines);
    expect(first.content).not.toContain('The complete output is in');
  });

  it('ends a page of long lines early, within the output budget', async () => {
    await writeFile(
      h.at('wide.txt'),
      Array.from({ length: 300 }, (_, index) => `${index}:${'y'.repeat(1000)}\n`).join(''),
    );
    const outcome = await h.call('read_file', { path: 'wide.txt' });
    const result = outcome.result as ReadFileResult;
    expect(result.range.end).toBeLessThan(300);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(outcome.content)).toBeLessThanOrEqual(DEFAULT_SPILL_LIMITS.maxBytes);
    expect(outcome.content).toContain(`Use offset=${result.range.end + 1} to continue.`);
  });

  it('reads the last page from an offset and ends with the end-of-file footer', async () => {
    await writeFile(h.at('long.txt'), numbered(2500));
    const last = await h.call('read_file', { path: 'long.txt', offset: 2001 });
    const result = last.result as ReadFileResult;
    expect(result.range).toEqual({ start: 2001, end: 2500 });
    expect(result.truncated).toBe(false);
    expect(result.content).toBe(numbered(500, 2001));
    expect(last.content).toMatch(/^<path>long\.txt<\/path>\n<type>file<\/type>\n<content>\n2001: line 2001\n/);
    expect(last.content).toContain(
      `\n2500: line 2500\n\n(End of file - total 2500 lines)\nsha256: ${sha256Of(numbered(2500))}\n</content>`,
    );
  });

  it('reads exactly the lines a limit asks for', async () => {
    await writeFile(h.at('long.txt'), numbered(50));
    const outcome = await h.call('read_file', { path: 'long.txt', offset: 10, limit: 5 });
    expect((outcome.result as ReadFileResult).content).toBe(numbered(5, 10));
    expect(outcome.content).toContain('(Showing lines 10-14 of 50. Use offset=15 to continue.)');
  });

  it('never gives more than a page, whatever the limit asks', async () => {
    await writeFile(h.at('long.txt'), numbered(2500));
    const outcome = await h.call('read_file', { path: 'long.txt', limit: 5000 });
    expect((outcome.result as ReadFileResult).range.end).toBe(PAGE_BUDGET.lines);
  });

  it('reads a page deep inside a file much larger than one read, hashing all of it', async () => {
    const text = Array.from({ length: 60_000 }, (_, index) => `${index + 1}:${'z'.repeat(index % 97)}\n`).join('');
    await writeFile(h.at('big.txt'), text);
    const result = (await h.call('read_file', { path: 'big.txt', offset: 40_001, limit: 3 })).result as ReadFileResult;
    expect(result.content).toBe(
      text
        .split('\n')
        .slice(40_000, 40_003)
        .map((line) => `${line}\n`)
        .join(''),
    );
    expect(result.total_lines).toBe(60_000);
    expect(result.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('counts a last line without a newline', async () => {
    await writeFile(h.at('a.txt'), 'a\nb');
    const outcome = await h.call('read_file', { path: 'a.txt' });
    expect((outcome.result as ReadFileResult).total_lines).toBe(2);
    expect(outcome.content).toContain('1: a\n2: b\n\n(End of file - total 2 lines)');
  });

  it('reads an empty file as zero lines', async () => {
    await writeFile(h.at('empty.txt'), '');
    const outcome = await h.call('read_file', { path: 'empty.txt' });
    expect(outcome.isError).toBe(false);
    expect(outcome.result).toMatchObject({
      range: { start: 1, end: 0 },
      total_lines: 0,
      content: '',
      truncated: false,
    });
    expect(outcome.content).toBe(
      `<path>empty.txt</path>\n<type>file</type>\n<content>\n(End of file - total 0 lines)\nsha256: ${sha256Of('')}\n</content>`,
    );
  });

  it('refuses an offset past the end and names the total', async () => {
    await writeFile(h.at('a.txt'), numbered(3));
    const outcome = await h.call('read_file', { path: 'a.txt', offset: 10 });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('offset 10 is past the end of a.txt, which has 3 lines');
  });

  it('cuts a very long line the same way in the model text and the structured content', async () => {
    const long = 'x'.repeat(2500);
    await writeFile(h.at('wide.txt'), `${long}\n`);
    const outcome = await h.call('read_file', { path: 'wide.txt' });
    const cut = `${'x'.repeat(2000)}… (line cut: 2500 characters; 500 not shown)`;
    expect((outcome.result as ReadFileResult).content).toBe(`${cut}\n`);
    expect(outcome.content).toContain(`\n1: ${cut}\n\n(End of file`);
    expect(outcome.content).not.toContain('x'.repeat(2001));
  });

  it('counts a cut line in characters, never splitting one made of two UTF-16 units', async () => {
    await writeFile(h.at('emoji.txt'), `${'😀'.repeat(2500)}\r\nnext\r\n`);
    const outcome = await h.call('read_file', { path: 'emoji.txt' });
    const cut = `${'😀'.repeat(2000)}… (line cut: 2500 characters; 500 not shown)`;
    expect((outcome.result as ReadFileResult).content).toBe(`${cut}\r\nnext\r\n`);
    expect(outcome.content).toContain(`\n1: ${cut}\n2: next\n`);
  });

  it('reads a 30 MB file of one line with a small result that gives its true length and hash', async () => {
    // 'ab€' is 5 bytes and 3 characters; the line has no newline, like a minified bundle.
    const bytes = Buffer.alloc(30 * 1024 * 1024, 'ab€');
    await writeFile(h.at('bundle.min.js'), bytes);
    const characters = new TextDecoder().decode(bytes).length;
    const outcome = await h.call('read_file', { path: 'bundle.min.js' });
    const result = outcome.result as ReadFileResult;
    const marker = `… (line cut: ${characters} characters; ${characters - 2000} not shown)`;
    expect(result.content).toBe(`${'ab€'.repeat(666)}ab${marker}`);
    expect(Buffer.byteLength(result.content)).toBeLessThan(8 * 1024);
    expect(Buffer.byteLength(outcome.content)).toBeLessThan(8 * 1024);
    expect(outcome.content).toContain(`\n1: ${result.content}\n\n(End of file - total 1 lines)`);
    expect(outcome.echo.result).toMatchObject({ kind: 'read-file', content: result.content, range: result.range });
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(result).toMatchObject({ range: { start: 1, end: 1 }, total_lines: 1, truncated: false });
  });

  it('pages past a huge line by offset, cutting it only where it is shown', async () => {
    const huge = 'q'.repeat(3 * 1024 * 1024);
    await writeFile(h.at('mixed.txt'), `first\n${huge}\nthird\nfourth\n`);
    const tail = (await h.call('read_file', { path: 'mixed.txt', offset: 3 })).result as ReadFileResult;
    expect(tail).toMatchObject({
      range: { start: 3, end: 4 },
      total_lines: 4,
      content: 'third\nfourth\n',
      truncated: false,
    });
    const head = (await h.call('read_file', { path: 'mixed.txt', limit: 2 })).result as ReadFileResult;
    expect(head.content).toBe(
      `first\n${'q'.repeat(2000)}… (line cut: ${huge.length} characters; ${huge.length - 2000} not shown)\n`,
    );
    expect(head.truncated).toBe(true);
  });

  it('shows CRLF lines without the carriage return', async () => {
    await writeFile(h.at('dos.txt'), 'a\r\nb\r\n');
    const outcome = await h.call('read_file', { path: 'dos.txt' });
    expect(outcome.content).toContain('1: a\n2: b\n');
    expect(outcome.content).not.toContain('\r');
  });

  it('leaves a byte order mark out of the content but in the hash', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hello\n')]);
    await writeFile(h.at('bom.txt'), bytes);
    const result = (await h.call('read_file', { path: 'bom.txt' })).result as ReadFileResult;
    expect(result.content).toBe('hello\n');
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('reads a file that is only a byte order mark as one empty line', async () => {
    await writeFile(h.at('bom-only.txt'), Buffer.from([0xef, 0xbb, 0xbf]));
    const result = (await h.call('read_file', { path: 'bom-only.txt' })).result as ReadFileResult;
    expect(result).toMatchObject({ range: { start: 1, end: 1 }, total_lines: 1, content: '', truncated: false });
  });

  it('refuses a binary file with a NUL byte', async () => {
    await writeFile(h.at('image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const outcome = await h.call('read_file', { path: 'image.bin' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe(
      'image.bin looks like a binary file (not text in UTF-8 or an encoding that could be detected), so it cannot be shown as lines.',
    );
  });

  it('refuses a file of bytes that no text encoding explains', async () => {
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, index) => 1 + (index % 0xff)));
    await writeFile(h.at('noise.dat'), noise);
    const outcome = await h.call('read_file', { path: 'noise.dat' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('looks like a binary file');
  });

  it('reads a file with a Latin-1 byte as Latin-1, not with a replacement character, and says so', async () => {
    await writeFile(
      h.at('latin.txt'),
      Buffer.concat([
        Buffer.from('caf'),
        Buffer.from([0xe9]),
        Buffer.from(' au lait, and plenty of plain text around it\n'),
      ]),
    );
    const outcome = await h.call('read_file', { path: 'latin.txt' });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('1: café au lait');
    expect(outcome.content).toMatch(/\(This file is encoded in (ISO-8859-1|windows-1252), not UTF-8/);
  });

  it('points a folder to list_dir', async () => {
    await mkdir(h.at('src'));
    const outcome = await h.call('read_file', { path: 'src' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe('src is a folder, not a file. Use list_dir to see what it contains.');
  });

  it('says a missing file does not exist', async () => {
    const outcome = await h.call('read_file', { path: 'nope.txt' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('nope.txt does not exist');
  });

  it('shows the path relative to the workspace, as asked', async () => {
    await mkdir(h.at('src/deep'), { recursive: true });
    await writeFile(h.at('src/deep/a.ts'), 'x\n');
    const outcome = await h.call('read_file', { path: './src/../src/deep/a.ts' });
    expect((outcome.result as ReadFileResult).path).toBe('src/deep/a.ts');
    expect(outcome.content.startsWith('<path>src/deep/a.ts</path>')).toBe(true);
  });

  it('reads a spilled output file in the session folder by its absolute path', async () => {
    const spilled = path.join(h.sessionDir, 'tool-output', 'call-9.txt');
    await mkdir(path.dirname(spilled), { recursive: true });
    await writeFile(spilled, 'kept\n');
    const outcome = await h.call('read_file', { path: spilled });
    expect(outcome.isError).toBe(false);
    expect((outcome.result as ReadFileResult).path).toBe(spilled);
  });
});
