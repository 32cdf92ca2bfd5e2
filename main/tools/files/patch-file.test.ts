import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { applyPatch } from 'diff';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PatchFileResult, PatchFileSuccess } from '../../../protocol/tools.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';

let h: FileToolsHarness;

beforeEach(async () => {
  h = await createFileToolsHarness();
});

afterEach(async () => {
  await h.cleanup();
});

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

async function patch(
  args: unknown,
): Promise<{ result: PatchFileResult | undefined; content: string; isError: boolean }> {
  const outcome = await h.call('patch_file', args);
  return { result: outcome.result as PatchFileResult | undefined, content: outcome.content, isError: outcome.isError };
}

function succeeded(result: PatchFileResult | undefined): PatchFileSuccess {
  if (!result?.ok) throw new Error(`patch failed: ${JSON.stringify(result)}`);
  return result;
}

describe('patch_file applies exact edits', () => {
  it('replaces a unique match and reports the diff and its statistics', async () => {
    await writeFile(h.at('a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const { result, content } = await patch({
      path: 'a.ts',
      edits: [{ old_text: 'const b = 2;', new_text: 'const b = 20;\nconst bb = 21;' }],
    });
    const done = succeeded(result);
    expect(await readFile(h.at('a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    expect(done).toMatchObject({
      path: 'a.ts',
      added: 2,
      removed: 1,
      hunks: 1,
      sha256: sha256('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n'),
    });
    expect(done.diff).toBe(
      '--- a.ts\n+++ a.ts\n@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n+const bb = 21;\n const c = 3;\n',
    );
    expect(content).toBe(`Patched a.ts: +2 -1 in 1 hunk. sha256: ${done.sha256}\n\n${done.diff}`);
  });

  it('echoes its diff and statistics as a patch echo', async () => {
    await writeFile(h.at('a.txt'), 'x\n');
    const outcome = await h.call('patch_file', { path: 'a.txt', edits: [{ old_text: 'x', new_text: 'y' }] });
    const { ok: _ok, sha256: _hash, ...change } = outcome.result as PatchFileSuccess;
    expect(outcome.echo.result).toEqual({ kind: 'patch', ...change });
  });

  it('matches every edit against the original text, not against earlier edits', async () => {
    await writeFile(h.at('a.txt'), 'one\ntwo\n');
    // Applied in sequence, the second edit would find the "two" the first one wrote.
    const { result } = await patch({
      path: 'a.txt',
      edits: [
        { old_text: 'one', new_text: 'two' },
        { old_text: 'two', new_text: 'three' },
      ],
    });
    succeeded(result);
    expect(await readFile(h.at('a.txt'), 'utf8')).toBe('two\nthree\n');
  });

  it('replaces every match with replace_all', async () => {
    await writeFile(h.at('a.txt'), 'foo bar foo\nfoo\n');
    const { result } = await patch({ path: 'a.txt', edits: [{ old_text: 'foo', new_text: 'baz', replace_all: true }] });
    expect(succeeded(result)).toMatchObject({ added: 2, removed: 2 });
    expect(await readFile(h.at('a.txt'), 'utf8')).toBe('baz bar baz\nbaz\n');
  });

  it('produces a diff that turns the old file into the new one, for edits far apart and close together', async () => {
    const lines = Array.from({ length: 400 }, (_, index) => `line ${index}`);
    const before = `${lines.join('\n')}\n`;
    await writeFile(h.at('big.txt'), before);
    const edits = [
      { old_text: 'line 3\n', new_text: 'LINE 3\nextra\n' },
      { old_text: 'line 8\n', new_text: '' },
      { old_text: 'line 200\nline 201', new_text: 'merged' },
      { old_text: 'line 399\n', new_text: 'last' },
    ];
    const done = succeeded((await patch({ path: 'big.txt', edits })).result);
    const after = await readFile(h.at('big.txt'), 'utf8');
    expect(applyPatch(before, done.diff)).toBe(after);
    expect(done.hunks).toBe(3);
    expect(done.diff).toContain('\\ No newline at end of file');
  });

  it('diffs a replacement that joins its line with the next one', async () => {
    await writeFile(h.at('a.txt'), 'a\nb\nc\n');
    const done = succeeded((await patch({ path: 'a.txt', edits: [{ old_text: 'a\n', new_text: 'x' }] })).result);
    expect(await readFile(h.at('a.txt'), 'utf8')).toBe('xb\nc\n');
    expect(applyPatch('a\nb\nc\n', done.diff)).toBe('xb\nc\n');
    expect(done).toMatchObject({ added: 1, removed: 2 });
  });

  it('diffs a change to almost every line of a long file quickly enough to finish', async () => {
    const before = Array.from({ length: 20_000 }, (_, index) => `value_${index} = compute(${index})\n`).join('');
    await writeFile(h.at('wide.py'), before);
    const done = succeeded(
      (await patch({ path: 'wide.py', edits: [{ old_text: 'compute', new_text: 'calc', replace_all: true }] })).result,
    );
    expect(done).toMatchObject({ added: 20_000, removed: 20_000 });
    expect(applyPatch(before, done.diff)).toBe(await readFile(h.at('wide.py'), 'utf8'));
  });
});

describe('patch_file keeps what it does not change', () => {
  it('keeps CRLF line endings when the edit is written with LF', async () => {
    await writeFile(h.at('dos.txt'), 'one\r\ntwo\r\nthree\r\n');
    const { result } = await patch({ path: 'dos.txt', edits: [{ old_text: 'one\ntwo\n', new_text: 'uno\ndos\n' }] });
    const done = succeeded(result);
    expect(await readFile(h.at('dos.txt'), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
    expect(done.diff).not.toContain('\r');
  });

  it('keeps a UTF-8 byte order mark', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await writeFile(h.at('bom.txt'), Buffer.concat([bom, Buffer.from('hello world\n')]));
    succeeded((await patch({ path: 'bom.txt', edits: [{ old_text: 'world', new_text: 'there' }] })).result);
    expect(await readFile(h.at('bom.txt'))).toEqual(Buffer.concat([bom, Buffer.from('hello there\n')]));
  });

  it('leaves every byte outside the matched text identical', async () => {
    // Mixed endings, trailing spaces, tabs, no final newline, non-ASCII: none of it may move.
    const before = 'α\tbeta  \r\nkeep\nchange me\n\t\tindent\r\nlast ☃';
    await writeFile(h.at('mixed.txt'), before);
    succeeded((await patch({ path: 'mixed.txt', edits: [{ old_text: 'change me', new_text: 'changed' }] })).result);
    expect(await readFile(h.at('mixed.txt'), 'utf8')).toBe(before.replace('change me', 'changed'));
  });

  it('keeps the file mode', async () => {
    await writeFile(h.at('run.sh'), 'echo hi\n');
    await chmod(h.at('run.sh'), 0o751);
    succeeded((await patch({ path: 'run.sh', edits: [{ old_text: 'hi', new_text: 'bye' }] })).result);
    expect((await stat(h.at('run.sh'))).mode & 0o7777).toBe(0o751);
  });

  it('leaves no temp file behind', async () => {
    await writeFile(h.at('a.txt'), 'x\n');
    succeeded((await patch({ path: 'a.txt', edits: [{ old_text: 'x', new_text: 'y' }] })).result);
    expect(await h.namesIn(h.workspace)).toEqual(['a.txt']);
  });

  it('patches the target of a link inside the workspace and keeps the link', async () => {
    const { symlink, lstat } = await import('node:fs/promises');
    await writeFile(h.at('real.txt'), 'x\n');
    await symlink('real.txt', h.at('link.txt'));
    succeeded((await patch({ path: 'link.txt', edits: [{ old_text: 'x', new_text: 'y' }] })).result);
    expect((await lstat(h.at('link.txt'))).isSymbolicLink()).toBe(true);
    expect(await readFile(h.at('real.txt'), 'utf8')).toBe('y\n');
  });
});

describe('patch_file refuses and leaves the file untouched', () => {
  const original = 'alpha\nbeta\nalpha\n';

  async function refused(args: Record<string, unknown>): Promise<string> {
    await writeFile(h.at('f.txt'), original);
    const { result, content, isError } = await patch({ path: 'f.txt', ...args });
    expect(isError).toBe(true);
    expect(result).toBeUndefined();
    expect(await readFile(h.at('f.txt'), 'utf8')).toBe(original);
    expect(await h.namesIn(h.workspace)).toEqual(['f.txt']);
    return content;
  }

  it('an ambiguous match, saying how many places and where', async () => {
    const error = await refused({ edits: [{ old_text: 'alpha', new_text: 'A' }] });
    expect(error).toContain('old_text matches 2 places in f.txt (lines 1, 3)');
    expect(error).toContain('replace_all');
  });

  it('an absent match, pointing at the closest line', async () => {
    const error = await refused({ edits: [{ old_text: 'betta', new_text: 'B' }] });
    expect(error).toContain('old_text was not found in f.txt.');
    expect(error).toContain('The closest line is line 2: "beta"');
  });

  it('an absent match whose first line differs only in indentation, saying so', async () => {
    const error = await refused({ edits: [{ old_text: '  beta\nalpha', new_text: 'B' }] });
    expect(error).toContain('Its first line matches line 2 apart from indentation');
  });

  it('a later edit that fails, even when earlier ones matched', async () => {
    const error = await refused({
      edits: [
        { old_text: 'beta', new_text: 'B' },
        { old_text: 'gamma', new_text: 'G' },
      ],
    });
    expect(error).toContain('Edit 2 of 2: old_text was not found');
  });

  it('overlapping edits', async () => {
    const error = await refused({
      edits: [
        { old_text: 'alpha\nbeta', new_text: 'x' },
        { old_text: 'beta\nalpha', new_text: 'y' },
      ],
    });
    expect(error).toContain('Edits 1 and 2 overlap at line 2 of f.txt');
  });

  it('a no-op', async () => {
    const error = await refused({ edits: [{ old_text: 'beta', new_text: 'beta' }] });
    expect(error).toContain('The edits change nothing in f.txt');
  });

  it('a stale expected_sha256', async () => {
    const error = await refused({
      expected_sha256: sha256('something else'),
      edits: [{ old_text: 'beta', new_text: 'B' }],
    });
    expect(error).toContain(
      `f.txt changed since it was read: expected sha256 ${sha256('something else')}, but it is now ${sha256(original)}`,
    );
  });

  it('an empty old_text, before it reaches the file', async () => {
    const error = await refused({ edits: [{ old_text: '', new_text: 'x' }] });
    expect(error).toContain('Invalid arguments for patch_file: edits.0.old_text');
  });

  it('a file that is not UTF-8 text, unless its encoding is given', async () => {
    const bytes = Buffer.from('Un café crème à la française, merci.\n', 'latin1');
    await writeFile(h.at('latin.txt'), bytes);
    const { isError, content } = await patch({ path: 'latin.txt', edits: [{ old_text: 'merci', new_text: 'b' }] });
    expect(isError).toBe(true);
    expect(content).toMatch(/^latin\.txt is encoded in \S+, not UTF-8 .*pass "encoding": "\S+"/);
    expect(await readFile(h.at('latin.txt'))).toEqual(bytes);
  });

  it('a missing file, pointing to write_file', async () => {
    const { isError, content } = await patch({ path: 'missing.txt', edits: [{ old_text: 'a', new_text: 'b' }] });
    expect(isError).toBe(true);
    expect(content).toContain('missing.txt does not exist');
    expect(content).toContain('Use write_file to create a new file.');
  });

  it('applies with the right expected_sha256', async () => {
    await writeFile(h.at('f.txt'), original);
    const { result } = await patch({
      path: 'f.txt',
      expected_sha256: sha256(original),
      edits: [{ old_text: 'beta', new_text: 'B' }],
    });
    expect(succeeded(result).sha256).toBe(sha256('alpha\nB\nalpha\n'));
  });
});

describe('patch_file asks the gate', () => {
  it('with the path and the edits as removed and added lines', () => {
    const asked = h.registry
      .get('patch_file')
      ?.card?.describe?.({ path: 'a.ts', edits: [{ old_text: 'old one\nold two', new_text: 'new' }] }, h);
    expect(asked).toEqual({
      title: 'Patch a.ts',
      subtitle: 'a.ts',
      detail: 'Edit 1:\n- old one\n- old two\n+ new',
      path: 'a.ts',
    });
  });
});

describe('patch_file writes atomically', () => {
  it('keeps the original whole and leaves no temp file when the write fails part-way', async () => {
    // A real failure: the file-size limit lets the temp file start but not finish (EFBIG).
    const before = 'small\n';
    await writeFile(h.at('f.txt'), before);
    const args = JSON.stringify({ path: 'f.txt', edits: [{ old_text: 'small', new_text: 'x'.repeat(8192) }] });
    const repo = path.resolve(import.meta.dirname, '../../..');
    const script = 'ulimit -f 4 && exec "$0" "$1" tool patch_file "$2" --workspace "$3" --sessions "$4"';
    const { stdout } = await promisify(execFile)('/bin/sh', [
      '-c',
      script,
      process.execPath,
      path.join(repo, 'bin/aether.js'),
      args,
      h.workspace,
      h.sessionDir,
    ]);
    const printed = JSON.parse(stdout) as { model: string; echo: { is_error: boolean } };
    expect(printed.echo.is_error).toBe(true);
    expect(printed.model).toContain('Could not write f.txt');
    expect(await readFile(h.at('f.txt'), 'utf8')).toBe(before);
    expect(await h.namesIn(h.workspace)).toEqual(['f.txt']);
  });
});
