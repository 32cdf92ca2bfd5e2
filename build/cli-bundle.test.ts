import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentBundle, MANIFEST, type CliManifest } from '../bin/cli-bundle.js';
import { bundleCli, type CliBundleResult } from './cli-bundle.ts';

// The real esbuild over the real sources into a temp folder, run as the bin runs it; and the rule
// that picks the bundle or the sources, over a temp tree of its own (the real sources are never
// touched: other processes may be running from them).

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
let out: string;
let workspace: string;
let built: CliBundleResult;

beforeAll(async () => {
  // Inside the repository, so the bundle's external imports resolve from its node_modules.
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  out = await mkdtemp(path.join(cache, 'aether-cli-'));
  workspace = await mkdtemp(path.join(os.tmpdir(), 'aether-cli-bundle-'));
  await writeFile(path.join(workspace, 'notes.txt'), 'first line\nsecond line\n');
  built = await bundleCli({ root, outDir: out });
}, 60_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

const manifestOf = async (dir: string) => JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as CliManifest;

/** `aether tool read_file` through `main` of the given module, as bin/aether.js calls it. */
async function readNotes(entry: string): Promise<{ model: unknown; echo: { result: unknown; is_error: boolean } }> {
  const args = ['tool', 'read_file', '{"path":"notes.txt"}', '--workspace', workspace, '--sessions', workspace];
  const script = `const { main } = await import(${JSON.stringify(entry)}); process.exitCode = await main(${JSON.stringify(args)});`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout) as { model: unknown; echo: { result: unknown; is_error: boolean } };
}

describe('the command line bundle', () => {
  it('answers a tool call exactly as the sources do', async () => {
    const bundled = await readNotes(built.entry);
    const sources = await readNotes(path.join(root, 'main', 'cli', 'aether.ts'));
    expect(bundled.echo.is_error).toBe(false);
    expect(bundled.model).toContain('2: second line');
    expect(bundled.model).toEqual(sources.model);
    expect(bundled.echo.result).toEqual(sources.echo.result);
  });

  it('is current right after the build, and names its entry', async () => {
    const manifest = await manifestOf(out);
    // Sources edited while it was built (someone at work in the checkout) leave it unused.
    if (built.changedDuring.length === 0) expect(currentBundle(root, out)).toEqual({ entry: built.entry });
    else expect(currentBundle(root, out)).toHaveProperty('stale', expect.stringContaining(' changed since'));
    expect(path.join(out, manifest.entry)).toBe(built.entry);
    const inputs = manifest.inputs.map(([file]) => file);
    for (const input of ['main/cli/aether.ts', 'main/tools/files/read-file.ts', 'package.json', 'bin/zod-locales.js'])
      expect(inputs).toContain(input);
    expect(inputs.some((file) => file.startsWith('node_modules/zod/'))).toBe(true);
  });

  it('splits by command and tool, bundles zod with English only, and imports no built-in as ESM', async () => {
    const { files } = await manifestOf(out);
    for (const part of ['tool-command-', 'serve-command-', 'run-command-', 'read-file-', 'patch-file-'])
      expect(files.some((file) => file.startsWith(part) && file.endsWith('.js'))).toBe(true);
    const code = await Promise.all(
      files.filter((file) => file.endsWith('.js')).map((file) => readFile(path.join(out, file), 'utf8')),
    );
    const all = code.join('\n');
    expect(all).toContain('ZodError');
    expect(all).not.toMatch(/from "zod"/);
    expect(all).not.toContain('node_modules/zod/v4/locales/de.js');
    expect(all).not.toMatch(/^import [^;]*from "node:/m);
  });

  it('points each worker URL at that worker’s own bundle beside the chunks', async () => {
    const { files } = await manifestOf(out);
    const code = (
      await Promise.all(
        files.filter((file) => file.endsWith('.js')).map((file) => readFile(path.join(out, file), 'utf8')),
      )
    ).join('\n');
    const urls = [...code.matchAll(/new URL\("\.\/([^"]+\.js)", import\.meta\.url\)/g)].map((match) => match[1]!);
    expect(urls.some((name) => name.startsWith('run-code-worker-'))).toBe(true);
    expect(urls.some((name) => name.startsWith('search-worker-'))).toBe(true);
    for (const name of urls) expect(existsSync(path.join(out, name))).toBe(true);
  });

  it('keeps the previous build’s files for processes still running from it', async () => {
    const first = await manifestOf(out);
    await bundleCli({ root, outDir: out });
    const second = await manifestOf(out);
    expect(second.previous).toEqual(first.files);
    for (const file of first.files) expect(existsSync(path.join(out, file))).toBe(true);
  }, 60_000);
});

describe('which code runs', () => {
  let tree: string;

  beforeAll(async () => {
    tree = await mkdtemp(path.join(os.tmpdir(), 'aether-cli-current-'));
  });

  afterAll(async () => {
    await rm(tree, { recursive: true, force: true });
  });

  async function layout(): Promise<string> {
    const dir = path.join(tree, 'out', 'cli');
    await mkdir(path.join(tree, 'main'), { recursive: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(tree, 'main', 'a.ts'), 'export const a = 1;\n');
    await writeFile(path.join(dir, 'aether-X.js'), 'export {};\n');
    const { statSync } = await import('node:fs');
    const stat = statSync(path.join(tree, 'main', 'a.ts'));
    const manifest: CliManifest = {
      format: 1,
      entry: 'aether-X.js',
      files: ['aether-X.js'],
      previous: [],
      inputs: [['main/a.ts', stat.mtimeMs, stat.size]],
    };
    await writeFile(path.join(dir, MANIFEST), JSON.stringify(manifest));
    return dir;
  }

  it('runs the bundle while every input is as it was built from', async () => {
    const dir = await layout();
    expect(currentBundle(tree)).toEqual({ entry: path.join(dir, 'aether-X.js') });
  });

  it('runs the sources once an input changed, and says which', async () => {
    await layout();
    await writeFile(path.join(tree, 'main', 'a.ts'), 'export const a = 2;\n');
    expect(currentBundle(tree)).toEqual({ stale: 'main/a.ts changed since the bundle was built' });
  });

  it('runs the sources when an input is gone, the entry is missing or there is no bundle', async () => {
    const dir = await layout();
    await rm(path.join(tree, 'main', 'a.ts'));
    expect(currentBundle(tree)).toEqual({ stale: 'main/a.ts, which the bundle was built from, is gone' });
    await layout();
    await rm(path.join(dir, 'aether-X.js'));
    expect(currentBundle(tree)).toEqual({ stale: `${path.join(dir, 'aether-X.js')} is missing` });
    await rm(dir, { recursive: true });
    expect(currentBundle(tree)).toEqual({ stale: `there is no bundle in ${dir} (npm run build:main makes it)` });
  });

  it('runs the sources when the manifest is not one it can check', async () => {
    const dir = await layout();
    await writeFile(path.join(dir, MANIFEST), JSON.stringify({ ...(await manifestOf(dir)), inputs: [42] }));
    expect(currentBundle(tree)).toHaveProperty('stale', expect.stringContaining('could not be checked'));
    await writeFile(path.join(dir, MANIFEST), '{"format": 1, "entry": "aether-X.js", "inp');
    expect(currentBundle(tree)).toHaveProperty('stale', expect.stringContaining('could not be checked: Unterminated'));
  });

  it('runs the sources when an input changed while the bundle was built', async () => {
    const dir = await layout();
    const manifest = await manifestOf(dir);
    manifest.inputs[0]![1] = -1;
    await writeFile(path.join(dir, MANIFEST), JSON.stringify(manifest));
    expect(currentBundle(tree)).toEqual({ stale: 'main/a.ts changed since the bundle was built' });
  });
});
