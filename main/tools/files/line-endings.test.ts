import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PatchFileResult, ReadFileResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

// Files whose lines end in both LF and CRLF (a Windows block pasted into a Unix file): read_file
// cannot show a `\r`, so patch_file must work with the text it shows, and keep each line's ending.

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

/** Mostly LF, with a CRLF block in lines 3-5. */
const MIXED = 'one\ntwo\nthree\r\nfour\r\nfive\r\nsix\nseven\neight\nnine\n';

/** The text of lines `from`-`to` as read_file shows them to the model (numbers stripped). */
async function shownLines(file: string, from: number, to: number): Promise<string> {
  const { content } = await h.call('read_file', { path: file, offset: from, limit: to - from + 1 });
  const lines = content.split('\n').filter((line) => /^\d+: /.test(line));
  return lines.map((line) => `${line.replace(/^\d+: /, '')}\n`).join('');
}

async function patch(args: unknown): Promise<PatchFileResult | undefined> {
  return (await h.call('patch_file', args)).result as PatchFileResult | undefined;
}

describe('mixed line endings', () => {
  it("says in read_file's footer and result when a file mixes line endings, and not when it does not", async () => {
    await writeFile(h.at('mixed.txt'), MIXED);
    const mixed = await h.call('read_file', { path: 'mixed.txt', limit: 2 });
    expect((mixed.result as ReadFileResult).line_endings).toEqual({ crlf: 3, lf: 6 });
    expect(mixed.content).toContain(
      "(Line endings are mixed: 3 lines end in CRLF and 6 in LF. patch_file matches either and keeps each line's own ending.)",
    );
    await writeFile(h.at('dos.txt'), 'a\r\nb\r\n');
    const dos = await h.call('read_file', { path: 'dos.txt' });
    expect((dos.result as ReadFileResult).line_endings).toBeUndefined();
    expect(dos.content).not.toContain('Line endings are mixed');
  });

  it('patches a CRLF block inside a mostly-LF file with the text read_file shows', async () => {
    await writeFile(h.at('mixed.txt'), MIXED);
    const oldText = await shownLines('mixed.txt', 3, 4);
    expect(oldText).toBe('three\nfour\n');
    const result = await patch({ path: 'mixed.txt', edits: [{ old_text: oldText, new_text: 'THREE\nFOUR\n' }] });
    expect(result?.ok).toBe(true);
    expect(await readFile(h.at('mixed.txt'), 'utf8')).toBe(MIXED.replace('three\r\nfour\r\n', 'THREE\r\nFOUR\r\n'));
  });

  it("keeps each line's ending when an edit spans LF and CRLF lines, and gives added lines the ending of the lines they replace", async () => {
    await writeFile(h.at('mixed.txt'), MIXED);
    const result = await patch({
      path: 'mixed.txt',
      edits: [
        { old_text: 'two\nthree\nfour\n', new_text: 'TWO\nTHREE\nFOUR\nFOUR AND A HALF\n' },
        { old_text: 'eight', new_text: 'EIGHT\nEIGHT AND A HALF' },
      ],
    });
    expect(result?.ok).toBe(true);
    expect(await readFile(h.at('mixed.txt'), 'utf8')).toBe(
      'one\nTWO\nTHREE\r\nFOUR\r\nFOUR AND A HALF\r\nfive\r\nsix\nseven\nEIGHT\nEIGHT AND A HALF\nnine\n',
    );
  });

  it('still patches a CRLF file with an edit that spells its line breaks as CRLF', async () => {
    await writeFile(h.at('dos.txt'), 'a\r\nb\r\nc\r\n');
    const result = await patch({ path: 'dos.txt', edits: [{ old_text: 'a\r\nb\r\n', new_text: 'A\r\nB\n' }] });
    expect(result?.ok).toBe(true);
    expect(await readFile(h.at('dos.txt'), 'utf8')).toBe('A\r\nB\r\nc\r\n');
  });

  it('says the first line matches exactly, not "apart from indentation", when only a later line differs', async () => {
    await writeFile(h.at('mixed.txt'), MIXED);
    const outcome = await h.call('patch_file', {
      path: 'mixed.txt',
      edits: [{ old_text: 'three\nFOUR\n', new_text: 'x\n' }],
    });
    expect(outcome.isError).toBe(true);
    const error = outcome.content;
    expect(error).toContain('Its first line matches line 3 exactly, so the difference is in the lines after it.');
    expect(error).not.toContain('apart from indentation');
  });
});
