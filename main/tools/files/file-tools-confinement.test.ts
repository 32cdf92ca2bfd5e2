import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

// Every file tool, every way out of the workspace: refused with a clear error, and nothing outside
// is read or written.

let h: FileToolsHarness;

const SECRET = 'TOP-SECRET-CONTENT';

beforeEach(async () => {
  h = await createFileToolsHarness();
  await writeFile(path.join(h.outside, 'secret.txt'), `${SECRET}\n`);
  await symlink(path.join(h.outside, 'secret.txt'), h.at('link.txt'));
  await symlink(h.outside, h.at('linkdir'));
  await symlink(path.join(h.outside, 'missing.txt'), h.at('dangling.txt'));
  await symlink(path.join(h.outside, 'missing-dir', 'x.txt'), h.at('dangling-deep.txt'));
});

afterEach(async () => {
  await h.cleanup();
});

type ArgsFor = (target: string) => Record<string, unknown>;

const tools: Record<string, ArgsFor> = {
  read_file: (target) => ({ path: target }),
  write_file: (target) => ({ path: target, content: 'written from inside' }),
  patch_file: (target) => ({ path: target, edits: [{ old_text: SECRET, new_text: 'patched' }] }),
  list_dir: (target) => ({ path: target }),
  search_files: (target) => ({ pattern: 'SECRET', path: target }),
};

interface Escape {
  target: (h: FileToolsHarness) => string;
  /** Goes out through a symbolic link inside the workspace. */
  viaLink?: boolean;
}

const escapes: Record<string, Escape> = {
  'a ../ traversal': { target: () => '../outside/secret.txt' },
  'a ../ traversal to a folder': { target: () => '../outside' },
  'a traversal through a folder inside': { target: () => 'sub/../../outside/secret.txt' },
  'an absolute path outside': { target: (harness) => path.join(harness.outside, 'secret.txt') },
  'an absolute path to a folder outside': { target: (harness) => harness.outside },
  'a link to a file outside': { target: () => 'link.txt', viaLink: true },
  'a link to a folder outside': { target: () => 'linkdir', viaLink: true },
  'a file beneath a linked folder': { target: () => 'linkdir/secret.txt', viaLink: true },
  'a new file beneath a linked folder': { target: () => 'linkdir/new.txt', viaLink: true },
  'a dangling link pointing outside': { target: () => 'dangling.txt', viaLink: true },
  'a dangling link into a missing folder outside': { target: () => 'dangling-deep.txt', viaLink: true },
};

async function outsideState(): Promise<{ names: string[]; secret: string }> {
  return {
    names: (await readdir(h.outside)).sort(),
    secret: await readFile(path.join(h.outside, 'secret.txt'), 'utf8'),
  };
}

describe.each(Object.entries(tools))('%s stays inside the workspace', (name, argsFor) => {
  it.each(Object.entries(escapes))('refuses %s', async (_, escape) => {
    await mkdir(h.at('sub'), { recursive: true });
    const before = await outsideState();
    const target = escape.target(h);
    const outcome = await h.call(name, argsFor(target));
    expect(outcome.isError).toBe(true);
    expect(outcome.echo.is_error).toBe(true);
    expect(outcome.content).not.toContain(SECRET);
    expect(await outsideState()).toEqual(before);
    expect(outcome.content).toMatch(/^Refused: .* is outside the workspace /);
  });
});

describe('links that stay inside the workspace', () => {
  it('are followed by read_file', async () => {
    await writeFile(h.at('real.txt'), 'inside\n');
    await symlink('real.txt', h.at('inner-link.txt'));
    const outcome = await h.call('read_file', { path: 'inner-link.txt' });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('1: inside');
  });

  it('let write_file create the file a dangling inner link names', async () => {
    await symlink('made-later.txt', h.at('points-in.txt'));
    const outcome = await h.call('write_file', { path: 'points-in.txt', content: 'now here\n' });
    expect(outcome.isError).toBe(false);
    expect(await readFile(h.at('made-later.txt'), 'utf8')).toBe('now here\n');
  });
});
