import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
let folder: string | null = null;

afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = null;
});

/** A throw-away folder of sources: relative path → text. */
async function sources(files: Record<string, string>): Promise<string> {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-cycles-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), text);
  }
  return folder;
}

describe('import cycles', () => {
  it('main/tools/ has none', async () => {
    expect(await importCycles(path.join(projectRoot, 'main', 'tools'))).toEqual([]);
  });

  it('finds a cycle through a subfolder and a re-export', async () => {
    const root = await sources({
      'registry.ts': "import { readFile } from './files/read.ts';\nexport const registry = [readFile];\n",
      'files/read.ts': "export { limits as readFile } from './limits.ts';\n",
      'files/limits.ts': "import { registry } from '../registry.ts';\nexport const limits = () => registry;\n",
      'alone.ts': "import { registry } from './registry.ts';\nexport const alone = registry;\n",
    });
    expect(await importCycles(root)).toEqual([['files/limits.ts', 'files/read.ts', 'registry.ts']]);
  });

  it('finds a module that imports itself', async () => {
    const root = await sources({ 'self.ts': "import './self.ts';\nexport const self = 1;\n" });
    expect(await importCycles(root)).toEqual([['self.ts']]);
  });

  it('leaves out type-only and dynamic imports, which load nothing when the module does', async () => {
    const root = await sources({
      'tool.ts': "import type { Gate } from './gate.ts';\nexport type Tool = { gate: Gate };\n",
      'gate.ts':
        "import { type Tool } from './kinds.ts';\nexport type Gate = { tools: Tool[] };\nexport const later = () => import('./tool.ts');\n",
      'kinds.ts': "export type { Tool } from './tool.ts';\n",
    });
    expect(await importCycles(root)).toEqual([]);
  });
});
