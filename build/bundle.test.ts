import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, type BundleResult } from './bundle.ts';

// The real esbuild over the real sources, into a temp folder: the layout electron-builder packs.

const root = path.resolve(import.meta.dirname, '..');
let out: string;
let result: BundleResult;

beforeAll(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'aether-bundle-'));
  result = await bundle({ root, outDir: out });
}, 60_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

const requires = (code: string) => [...code.matchAll(/require\((["'])([^"']+)\1\)/g)].map((match) => match[2]);

describe('bundle', () => {
  it('writes the main process, the preload and the workers where the installers expect them', () => {
    expect(path.relative(out, result.main)).toBe(path.join('main', 'index.js'));
    expect(path.relative(out, result.preload)).toBe(path.join('preload', 'index.cjs'));
  });

  it('makes the preload one CommonJS file that requires only electron', async () => {
    const code = await readFile(result.preload, 'utf8');
    expect(requires(code)).toEqual(['electron']);
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).toContain('exposeInMainWorld("pythia"');
  });

  it('keeps electron and the production dependencies out of the main bundle', async () => {
    const code = await readFile(result.main, 'utf8');
    expect(code).toMatch(/from "electron"/);
    expect(code).toMatch(/from "zod"/);
    expect(code).not.toContain('ZodError = class');
  });

  it('bundles each worker a main file starts as its own output and points the URL at it', async () => {
    const code = await readFile(result.main, 'utf8');
    const workers = result.workers.map((file) => path.basename(file));
    expect(workers).toContain('run-code-worker.js');
    expect(code).toContain('new URL("./run-code-worker.js", import.meta.url)');
    expect(code).not.toMatch(/new URL\(["'][^"']+\.ts["'], import\.meta\.url\)/);
  });
});
