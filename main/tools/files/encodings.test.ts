import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PatchFileResult, ReadFileResult } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

// Text files in encodings other than UTF-8, on real files: read_file decodes them and says so, and
// write_file / patch_file leave them alone unless given the same encoding back, then write in it.
// Fixtures are built with Node's own latin1 / utf16le encoders or written out as bytes.

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

const FRENCH = 'Café crème brûlée, naïve façade.\nDeuxième ligne: à é è ù ç.\n';
/** 日本語のテキストファイルです。\n二行目もあります。漢字とカタカナ。\n in Shift_JIS. */
const SHIFT_JIS = Buffer.from(
  '93fa967b8cea82cc8365834c83588367837483408343838b82c582b781420a93f18d7396da82e082a082e882dc82b781428abf8e9a82c6834a835e834a836981420a',
  'hex',
);
const JAPANESE = '日本語のテキストファイルです。\n二行目もあります。漢字とカタカナ。\n';

async function read(file: string): Promise<{ content: string; result: ReadFileResult }> {
  const outcome = await h.call('read_file', { path: file });
  expect(outcome.isError).toBe(false);
  return { content: outcome.content, result: outcome.result as ReadFileResult };
}

describe('files in other encodings', () => {
  it('reads a Latin-1 file decoded, without replacement characters, and names the encoding', async () => {
    await writeFile(h.at('fr.txt'), Buffer.from(FRENCH, 'latin1'));
    const { content, result } = await read('fr.txt');
    expect(result.content).toBe(FRENCH);
    expect(result.encoding).toMatch(/^(ISO-8859-1|windows-1252)$/);
    expect(content).toContain('1: Café crème brûlée');
    expect(content).toContain(`(This file is encoded in ${result.encoding}, not UTF-8`);
  });

  it('refuses to overwrite a Latin-1 file unless its encoding is passed back, then writes Latin-1', async () => {
    const original = Buffer.from(FRENCH, 'latin1');
    await writeFile(h.at('fr.txt'), original);
    const { result } = await read('fr.txt');
    const content = FRENCH.replace('naïve', 'très naïve');

    const refused = await h.call('write_file', { path: 'fr.txt', content, expected_sha256: result.sha256 });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(`pass "encoding": "${result.encoding}"`);
    expect(await readFile(h.at('fr.txt'))).toEqual(original);

    const written = await h.call('write_file', {
      path: 'fr.txt',
      content,
      expected_sha256: result.sha256,
      encoding: result.encoding,
    });
    expect(written.isError).toBe(false);
    expect(await readFile(h.at('fr.txt'))).toEqual(Buffer.from(content, 'latin1'));
  });

  it('refuses to patch a Latin-1 file unless its encoding is passed back, then keeps every other byte', async () => {
    const original = Buffer.from(FRENCH, 'latin1');
    await writeFile(h.at('fr.txt'), original);
    const { result } = await read('fr.txt');
    const edits = [{ old_text: 'Deuxième', new_text: 'Troisième' }];

    const refused = await h.call('patch_file', { path: 'fr.txt', edits });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(`is encoded in ${result.encoding}, not UTF-8`);
    expect(await readFile(h.at('fr.txt'))).toEqual(original);

    const patched = await h.call('patch_file', { path: 'fr.txt', edits, encoding: result.encoding });
    expect((patched.result as PatchFileResult).ok).toBe(true);
    expect(await readFile(h.at('fr.txt'))).toEqual(Buffer.from(FRENCH.replace('Deuxième', 'Troisième'), 'latin1'));
  });

  it('refuses an encoding that reads the file differently, and a character the encoding cannot hold', async () => {
    const original = Buffer.from(FRENCH, 'latin1');
    await writeFile(h.at('fr.txt'), original);
    const { result } = await read('fr.txt');
    const wrong = await h.call('patch_file', {
      path: 'fr.txt',
      edits: [{ old_text: 'Café', new_text: 'Thé' }],
      encoding: 'Shift_JIS',
    });
    expect(wrong.content).toContain(`but "encoding" says Shift_JIS, which reads it differently`);
    const unheld = await h.call('patch_file', {
      path: 'fr.txt',
      edits: [{ old_text: 'Café', new_text: 'Café 日本' }],
      encoding: result.encoding,
    });
    expect(unheld.content).toContain(`has a character ${result.encoding} cannot hold: "日"`);
    expect(await readFile(h.at('fr.txt'))).toEqual(original);
  });

  it('refuses to overwrite a file whose Latin-1 bytes come only after a long UTF-8 start', async () => {
    const start = 'plain ascii line that says nothing in particular\n'.repeat(8000);
    const original = Buffer.concat([Buffer.from(start), Buffer.from('Deuxième ligne, très française.\n', 'latin1')]);
    await writeFile(h.at('late.txt'), original);
    const sha256 = (await read('late.txt')).result.sha256;
    const refused = await h.call('write_file', { path: 'late.txt', content: 'replaced\n', expected_sha256: sha256 });
    expect(refused.isError).toBe(true);
    expect(refused.content).toMatch(/late\.txt is encoded in (ISO-8859-1|windows-1252), not UTF-8/);
    expect(await readFile(h.at('late.txt'))).toEqual(original);
  });

  it('reads a Shift_JIS file and writes it back byte for byte in Shift_JIS', async () => {
    await writeFile(h.at('ja.txt'), SHIFT_JIS);
    const { result } = await read('ja.txt');
    expect(result).toMatchObject({ content: JAPANESE, encoding: 'Shift_JIS', total_lines: 2 });
    const written = await h.call('write_file', {
      path: 'ja.txt',
      content: result.content,
      expected_sha256: result.sha256,
      encoding: 'Shift_JIS',
    });
    expect(written.isError).toBe(false);
    expect(await readFile(h.at('ja.txt'))).toEqual(SHIFT_JIS);
  });

  it('reads and patches a UTF-16LE file with its byte order mark', async () => {
    const bom = Buffer.from([0xff, 0xfe]);
    await writeFile(h.at('wide.txt'), Buffer.concat([bom, Buffer.from('first line\r\nsecond line\r\n', 'utf16le')]));
    const { content, result } = await read('wide.txt');
    expect(result).toMatchObject({ content: 'first line\r\nsecond line\r\n', encoding: 'UTF-16LE', total_lines: 2 });
    expect(content).toContain('2: second line');
    const patched = await h.call('patch_file', {
      path: 'wide.txt',
      edits: [{ old_text: 'second line\n', new_text: 'second line\nthird line\n' }],
      encoding: 'UTF-16LE',
    });
    expect((patched.result as PatchFileResult).ok).toBe(true);
    expect(await readFile(h.at('wide.txt'))).toEqual(
      Buffer.concat([bom, Buffer.from('first line\r\nsecond line\r\nthird line\r\n', 'utf16le')]),
    );
  });
});
