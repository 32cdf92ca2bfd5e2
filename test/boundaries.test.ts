import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The import boundaries (ARCHITECTURE.md, Layers), checked over every source file (the linter keeps
// them too).

const projectRoot = path.resolve(import.meta.dirname, '..');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

interface ImportSite {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

async function sourcesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (/\.(ts|tsx|mts|cts)$/.test(entry.name)) found.push(full);
    }
  };
  await walk(path.join(projectRoot, folder));
  return found;
}

async function importsOf(folder: string): Promise<ImportSite[]> {
  const sites: ImportSite[] = [];
  const pattern =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const file of await sourcesUnder(folder)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const specifier = match[3] ?? match[4];
      if (!specifier) continue;
      sites.push({ file: path.relative(projectRoot, file), specifier, typeOnly: Boolean(match[2]) });
    }
  }
  return sites;
}

const resolvesInto = (site: ImportSite, folder: string): boolean =>
  site.specifier.startsWith('.') &&
  path.relative(projectRoot, path.resolve(projectRoot, path.dirname(site.file), site.specifier)).split(path.sep)[0] ===
    folder;

const isElectron = (site: ImportSite): boolean =>
  site.specifier === 'electron' || site.specifier.startsWith('electron/');

describe('import boundaries', () => {
  it('finds the sources it checks', async () => {
    expect((await importsOf('main')).length).toBeGreaterThan(10);
  });

  it('protocol/ imports nothing but its own files and zod', async () => {
    const bad = (await importsOf('protocol')).filter(
      (site) => site.specifier !== 'zod' && !resolvesInto(site, 'protocol'),
    );
    expect(bad).toEqual([]);
  });

  it('only main/electron/ and preload/ import electron', async () => {
    const all = [...(await importsOf('main')), ...(await importsOf('renderer')), ...(await importsOf('protocol'))];
    const bad = all.filter((site) => isElectron(site) && !site.file.startsWith(`main${path.sep}electron${path.sep}`));
    expect(bad).toEqual([]);
  });

  it('renderer/ never imports main/, preload/, Node built-ins or electron', async () => {
    const bad = (await importsOf('renderer')).filter(
      (site) =>
        resolvesInto(site, 'main') || resolvesInto(site, 'preload') || builtins.has(site.specifier) || isElectron(site),
    );
    expect(bad).toEqual([]);
  });

  it('preload/ imports only electron, protocol/ and itself', async () => {
    const bad = (await importsOf('preload')).filter(
      (site) =>
        !site.file.includes('.test.') &&
        !isElectron(site) &&
        !resolvesInto(site, 'protocol') &&
        !resolvesInto(site, 'preload'),
    );
    expect(bad).toEqual([]);
  });

  it('main/ never imports the renderer or the preload', async () => {
    const bad = (await importsOf('main')).filter(
      (site) => resolvesInto(site, 'renderer') || resolvesInto(site, 'preload'),
    );
    expect(bad).toEqual([]);
  });
});
