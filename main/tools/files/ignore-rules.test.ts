import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IgnoreRules } from './ignore-rules.ts';
import { walk } from './walk.ts';

// The walk keeps each folder's .gitignore rules between walks, and reads them again once the file
// changes.

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ignore-rules-')));
  await mkdir(path.join(workspace, 'src', 'deep'), { recursive: true });
  await writeFile(path.join(workspace, '.gitignore'), '*.log\n');
  await writeFile(path.join(workspace, 'src', '.gitignore'), 'generated/\n');
  await writeFile(path.join(workspace, 'src', 'deep', 'a.ts'), 'a');
  await writeFile(path.join(workspace, 'src', 'deep', 'b.log'), 'b');
  await writeFile(path.join(workspace, 'src', 'deep', 'c.tmp'), 'c');
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function names(start: string, ignoreRules: IgnoreRules): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of walk(path.join(workspace, start), { workspace, maxDepth: 10, ignoreRules }))
    found.push(entry.path);
  return found;
}

describe('.gitignore rules kept between walks', () => {
  it('reads each folder’s rules once over many walks, those of the folders above the start included', async () => {
    const rules = new IgnoreRules();
    for (let walkIndex = 0; walkIndex < 5; walkIndex += 1) {
      expect(await names('src/deep', rules)).toEqual(['a.ts', 'c.tmp']);
      expect(await names('.', rules)).toEqual([
        '.gitignore',
        'src',
        'src/.gitignore',
        'src/deep',
        'src/deep/a.ts',
        'src/deep/c.tmp',
      ]);
    }
    expect(rules.reads).toBe(2);
  });

  it('reads a .gitignore again after it is edited, and applies the new rules', async () => {
    const rules = new IgnoreRules();
    expect(await names('src/deep', rules)).toEqual(['a.ts', 'c.tmp']);
    await writeFile(path.join(workspace, '.gitignore'), '*.log\n*.tmp\n');

    expect(await names('src/deep', rules)).toEqual(['a.ts']);
    expect(rules.reads).toBe(3);
  });

  it('forgets the rules of a .gitignore that was removed or replaced by a link', async () => {
    const rules = new IgnoreRules();
    expect(await names('src/deep', rules)).toEqual(['a.ts', 'c.tmp']);
    await rm(path.join(workspace, '.gitignore'));
    expect(await names('src/deep', rules)).toEqual(['a.ts', 'b.log', 'c.tmp']);
    await writeFile(path.join(workspace, 'elsewhere'), '*\n');
    await symlink(path.join(workspace, 'elsewhere'), path.join(workspace, '.gitignore'));

    expect(await names('src/deep', rules)).toEqual(['a.ts', 'b.log', 'c.tmp']);
  });
});
