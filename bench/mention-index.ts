import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MENTION_MATCH_LIMIT } from '../protocol/composer.ts';
import { indexedPath, matchPaths, WorkspaceIndex } from '../main/host/composer/workspace-index.ts';
import { walk } from '../main/tools/files/walk.ts';
import { compare, time } from './measure.ts';

// The composer's `@` picker: one fuzzy query over a 100 000-path index (the best 50, with the
// matched characters) against a plain substring filter over the same paths, the least any
// picker does; and keeping a real workspace's index current (one lstat per folder) against
// walking the workspace again.

const PATHS = 100_000;
const QUERIES = ['cmpsr', 'src/util', 'index.ts', 'readme', 'pnlsvc'];
const TREE_FOLDERS = 1000;
const FILES_PER_FOLDER = 10;

export async function run(): Promise<void> {
  const words = ['src', 'lib', 'renderer', 'main', 'composer', 'panel', 'service', 'util', 'cards', 'host', 'test'];
  const paths: string[] = [];
  for (let index = 0; paths.length < PATHS; index += 1) {
    const depth = 1 + (index % 5);
    const parts = Array.from(
      { length: depth },
      (_, level) => `${words[(index * 7 + level * 3) % words.length]}${level}`,
    );
    paths.push(`${parts.join('/')}/file-${index}.${index % 3 === 0 ? 'ts' : index % 3 === 1 ? 'tsx' : 'md'}`);
  }
  const list = paths.map((relative) => indexedPath(relative, 'file'));
  const fuzzy = await time(15, () => {
    for (const query of QUERIES) matchPaths(list, query, MENTION_MATCH_LIMIT);
  });
  const substring = await time(15, () => {
    for (const query of QUERIES) {
      const lower = query.toLowerCase();
      paths.filter((candidate) => candidate.toLowerCase().includes(lower)).slice(0, MENTION_MATCH_LIMIT);
    }
  });
  console.log(`@ picker: ${QUERIES.length} queries over ${PATHS.toLocaleString('en')} paths`);
  console.log(`  ${compare('fuzzy (fuzzysort, best 50, indexes)', fuzzy, substring, 'substring filter')}`);

  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-mentions-'));
  try {
    for (let folder = 0; folder < TREE_FOLDERS; folder += 1) {
      const at = path.join(root, `pkg${folder % 20}`, `mod${folder}`);
      await mkdir(at, { recursive: true });
      for (let file = 0; file < FILES_PER_FOLDER; file += 1) await writeFile(path.join(at, `f${file}.ts`), '');
    }
    const index = new WorkspaceIndex({ workspace: root, staleAfterMs: 0 });
    await index.refresh(true);
    const check = await time(9, () => index.refresh(true));
    const rewalk = await time(9, async () => {
      for await (const entry of walk(root, { workspace: root, maxDepth: Infinity })) void entry;
    });
    const files = TREE_FOLDERS * FILES_PER_FOLDER;
    console.log(
      `@ index of a workspace of ${files.toLocaleString('en')} files in ${TREE_FOLDERS + 20} folders, nothing changed`,
    );
    console.log(`  ${compare('staleness check (lstat per folder)', check, rewalk, 'walking it again')}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
