import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { DEFAULT_MAX_EDIT_BYTES, sizeText } from './file-versions.ts';
import { peakGrowth } from '../../../test/peak-memory.ts';

// write_file and patch_file read a file whole before they rewrite it: one over the limit (the
// max_edit_file_mib setting, 64 MiB by default) is refused from its size on the open descriptor,
// before a byte is read, so memory stays flat however big the file is.

let h: FileToolsHarness;
/** The edit limit the tools read at each call, as a settings change would set it; undefined: the default. */
let limit: number | undefined;

beforeEach(async () => {
  limit = undefined;
  h = await createFileToolsHarness({ maxEditBytes: () => limit ?? DEFAULT_MAX_EDIT_BYTES });
});

afterEach(async () => {
  await h.cleanup();
});

const HUGE = Math.floor(1.9 * 1024 ** 3);
const MiB = 1024 * 1024;

/** A sparse file: its size is `bytes`, but it takes no disk space. */
async function sparseFile(relative: string, bytes: number): Promise<void> {
  const handle = await open(h.at(relative), 'w');
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}

describe('a file larger than the edit limit', () => {
  it.each([
    ['patch_file', { path: 'huge.log', edits: [{ old_text: 'a', new_text: 'b' }] }],
    ['write_file', { path: 'huge.log', content: 'small\n', expected_sha256: 'a'.repeat(64) }],
  ])('is refused by %s from its size alone, with little memory', async (name, args) => {
    await sparseFile('huge.log', HUGE);
    const { value: outcome, growth } = await peakGrowth(() => h.call(name, args));
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain(`huge.log is 1.9 GiB, over the 64 MiB limit of files ${name} reads whole`);
    expect(outcome.content).toMatch(/with exec instead \(for example sed -i/);
    expect(outcome.content).toContain('raise the limit in Settings');
    expect(growth).toBeLessThan(100 * MiB);
    expect((await stat(h.at('huge.log'))).size).toBe(HUGE);
    expect(await h.namesIn(h.workspace)).toEqual(['huge.log']);
  });

  it('follows the setting: a lower limit refuses a smaller file, naming that limit', async () => {
    await writeFile(h.at('notes.txt'), 'x'.repeat(2048));
    limit = 1024;
    const outcome = await h.call('patch_file', { path: 'notes.txt', edits: [{ old_text: 'x', new_text: 'y' }] });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('notes.txt is 2 KiB, over the 1 KiB limit of files patch_file reads whole');
    expect(await readFile(h.at('notes.txt'), 'utf8')).toBe('x'.repeat(2048));
  });
});

describe('sizeText', () => {
  it('names sizes as a person reads them', () => {
    expect(sizeText(DEFAULT_MAX_EDIT_BYTES)).toBe('64 MiB');
    expect(sizeText(HUGE)).toBe('1.9 GiB');
    expect(sizeText(512)).toBe('512 bytes');
  });
});
