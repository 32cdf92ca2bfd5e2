import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeEchoSchema, type WriteEcho } from '../../../protocol/echo.ts';
import { READ_LINE_CHARS, READ_PAGE_LINES } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

// write_file shows what it wrote: the echo of a new file is its first page, the echo of an
// overwrite is the diff, both bounded like a read_file page.

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function written(args: { path: string; content: string; expected_sha256?: string }): Promise<WriteEcho> {
  const outcome = await h.call('write_file', args);
  expect(outcome.isError).toBe(false);
  return writeEchoSchema.parse(outcome.echo.result);
}

describe('the write_file echo', () => {
  it('of a new file is its text from line 1 and how many lines it has', async () => {
    const echo = await written({ path: 'src/hello.py', content: 'def hello():\n    return "hi"\n' });
    expect(echo).toEqual({
      kind: 'write',
      path: 'src/hello.py',
      created: true,
      bytes: 29,
      content: { text: 'def hello():\n    return "hi"\n', total_lines: 2, truncated: false },
    });
  });

  it('of an overwrite is the unified diff of what changed', async () => {
    await writeFile(h.at('notes.txt'), 'first\nsecond\n');
    const echo = await written({
      path: 'notes.txt',
      content: 'first\nSECOND\nthird\n',
      expected_sha256: sha256('first\nsecond\n'),
    });
    expect(echo).toMatchObject({ kind: 'write', created: false, change: { added: 2, removed: 1, hunks: 1 } });
    expect(echo.content).toBeUndefined();
    expect(echo.change?.diff).toBe('--- notes.txt\n+++ notes.txt\n@@ -1,2 +1,3 @@\n first\n-second\n+SECOND\n+third\n');
  });

  it('of an overwrite with the same text has an empty diff, so the card is the minimal ok', async () => {
    await writeFile(h.at('same.txt'), 'unchanged\n');
    const echo = await written({ path: 'same.txt', content: 'unchanged\n', expected_sha256: sha256('unchanged\n') });
    expect(echo.change).toEqual({ diff: '', added: 0, removed: 0, hunks: 0 });
  });

  it('of a huge new file holds one page: at most the page lines, long lines cut as read_file cuts them', async () => {
    const long = 'y'.repeat(READ_LINE_CHARS + 500);
    const lines = [long, ...Array.from({ length: READ_PAGE_LINES + 500 }, (_, index) => `line ${index + 2}`)];
    const echo = await written({ path: 'big.txt', content: `${lines.join('\n')}\n` });
    expect(echo.content?.total_lines).toBe(lines.length);
    expect(echo.content?.truncated).toBe(true);
    const shown = echo.content!.text.split('\n');
    expect(shown[0]).toBe(`${'y'.repeat(READ_LINE_CHARS)}… (line cut: ${long.length} characters; 500 not shown)`);
    expect(shown.length - 1).toBeLessThanOrEqual(READ_PAGE_LINES);
    expect(Buffer.byteLength(echo.content!.text)).toBeLessThanOrEqual(50 * 1024);
  });

  it('of a file replaced whole holds as much of the diff as a page, and says it is cut', async () => {
    const before = Array.from({ length: 3000 }, (_, index) => `old ${index}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, index) => `new ${index}`).join('\n');
    await writeFile(h.at('swap.txt'), before);
    const echo = await written({ path: 'swap.txt', content: after, expected_sha256: sha256(before) });
    expect(echo.change).toMatchObject({ added: 3000, removed: 3000, cut: true });
    expect(echo.change!.diff.startsWith('--- swap.txt\n+++ swap.txt\n@@ -1,3000 +1,3000 @@\n-old 0\n')).toBe(true);
    expect(echo.change!.diff.split('\n').length - 1).toBeLessThanOrEqual(READ_PAGE_LINES);
  });

  it('keeps the result the model and programs get as it was, with the change beside it', async () => {
    await writeFile(h.at('a.txt'), 'a\n');
    const outcome = await h.call('write_file', { path: 'a.txt', content: 'b\n', expected_sha256: sha256('a\n') });
    expect(outcome.content).toBe(`Overwrote a.txt (2 bytes). sha256: ${sha256('b\n')}`);
    expect(outcome.result).toMatchObject({ path: 'a.txt', created: false, change: { added: 1, removed: 1 } });
  });
});
