import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { WorkspaceIndex } from './workspace-index.ts';

const temp = useTempWorkspace('aether-index-');

/** Creates files (content = their name) and folders (names ending with '/'). */
async function tree(...names: string[]): Promise<void> {
  for (const name of names) {
    const at = path.join(temp.workspace, name);
    if (name.endsWith('/')) await mkdir(at, { recursive: true });
    else {
      await mkdir(path.dirname(at), { recursive: true });
      await writeFile(at, name);
    }
  }
}

/** Every query checks the disk again (no grace period), as after a pause in typing. */
const indexOf = (options: { maxEntries?: number } = {}) =>
  new WorkspaceIndex({ workspace: temp.workspace, staleAfterMs: 0, ...options });

const pathsFor = async (index: WorkspaceIndex, query: string) =>
  (await index.find(query, 100)).matches.map((match) => match.path);

describe('WorkspaceIndex', () => {
  it('finds files and folders by fuzzy query, with the matched characters', async () => {
    await tree('renderer/composer/Composer.tsx', 'renderer/cards/ToolCard.tsx', 'README.md');
    const index = indexOf();
    const found = await index.find('cmpsr');
    expect(found.matches[0]).toMatchObject({ path: 'renderer/composer', kind: 'dir' });
    expect(found.matches.map((match) => match.path)).toContain('renderer/composer/Composer.tsx');
    expect(found.matches.map((match) => match.path)).not.toContain('README.md');
    const file = found.matches.find((match) => match.path === 'renderer/composer/Composer.tsx');
    expect(file?.kind).toBe('file');
    expect(file?.indexes.length).toBe(5);
    expect(found.indexed).toBe(6);
  });

  it('leaves out what .gitignore ignores, nested rules included, and .git', async () => {
    await tree('.gitignore', 'app/.gitignore', 'node_modules/lib/index.js', 'app/build/out.js', 'app/main.ts');
    await tree('.git/config', 'notes.log');
    await writeFile(path.join(temp.workspace, '.gitignore'), 'node_modules/\n*.log\n');
    await writeFile(path.join(temp.workspace, 'app', '.gitignore'), 'build/\n');
    const all = await pathsFor(indexOf(), '');
    expect(all.sort()).toEqual(['.gitignore', 'app']);
    const index = indexOf();
    expect(await pathsFor(index, 'index.js')).toEqual([]);
    expect(await pathsFor(index, 'out.js')).toEqual([]);
    expect(await pathsFor(index, 'config')).toEqual([]);
    expect(await pathsFor(index, 'notes')).toEqual([]);
    expect(await pathsFor(index, 'main.ts')).toEqual(['app/main.ts']);
  });

  it('sees files and folders added, removed and renamed since the last query', async () => {
    await tree('src/a.ts', 'src/old/deep.ts', 'docs/guide.md');
    const index = indexOf();
    expect(await pathsFor(index, 'deep')).toEqual(['src/old/deep.ts']);
    await tree('src/b.ts', 'lib/fresh/inner/new.ts');
    await rename(path.join(temp.workspace, 'src', 'old'), path.join(temp.workspace, 'src', 'moved'));
    await rm(path.join(temp.workspace, 'docs'), { recursive: true });
    expect(await pathsFor(index, 'src/b.ts')).toEqual(['src/b.ts']);
    expect(await pathsFor(index, 'new.ts')).toEqual(['lib/fresh/inner/new.ts']);
    expect(await pathsFor(index, 'deep')).toEqual(['src/moved/deep.ts']);
    expect(await pathsFor(index, 'guide')).toEqual([]);
  });

  it('applies a .gitignore that appears or changes later', async () => {
    await tree('dist/bundle.js', 'src/main.ts');
    const index = indexOf();
    expect(await pathsFor(index, 'bundle')).toEqual(['dist/bundle.js']);
    await writeFile(path.join(temp.workspace, '.gitignore'), 'dist/\n');
    expect(await pathsFor(index, 'bundle')).toEqual([]);
    await writeFile(path.join(temp.workspace, '.gitignore'), 'src/\n');
    expect(await pathsFor(index, 'bundle')).toEqual(['dist/bundle.js']);
    expect(await pathsFor(index, 'main')).toEqual([]);
  });

  it('trusts its last check within the grace period, so fast typing walks nothing', async () => {
    await tree('a.txt');
    let now = 0;
    const index = new WorkspaceIndex({ workspace: temp.workspace, staleAfterMs: 1000, now: () => now });
    expect(await pathsFor(index, 'b.txt')).toEqual([]);
    await tree('b.txt');
    now = 500;
    expect(await pathsFor(index, 'b.txt')).toEqual([]);
    now = 1600;
    expect(await pathsFor(index, 'b.txt')).toEqual(['b.txt']);
  });

  it('stops at its limit and says the index is capped', async () => {
    await tree('a/1.txt', 'a/2.txt', 'b/3.txt', 'b/4.txt');
    const found = await indexOf({ maxEntries: 3 }).find('');
    expect(found.capped).toBe(true);
    expect(found.indexed).toBe(3);
  });
});
