import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, type BundleResult } from './bundle.ts';

// The real esbuild over the real sources, into a temp folder: the layout electron-builder packs.

const root = path.resolve(import.meta.dirname, '..');
let out: string;
let result: BundleResult;

beforeAll(async () => {
  // Inside the repository, so the bundle's external imports resolve from its node_modules.
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  out = await mkdtemp(path.join(cache, 'aether-bundle-'));
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

// The Electron binary cannot run here, so `electron` resolves to a stub that records calls; every
// other import of the bundle is the real installed package.
const STUB = `
const calls = [];
const record = (name) => () => { calls.push(name); };
export const app = { on: record('app.on'), enableSandbox: record('app.enableSandbox'), requestSingleInstanceLock: () => { calls.push('app.requestSingleInstanceLock'); return true; }, whenReady: () => new Promise(() => {}), setPath: record('app.setPath'), quit: record('app.quit') };
export const protocol = { registerSchemesAsPrivileged: record('protocol.registerSchemesAsPrivileged'), handle: record('protocol.handle') };
export class BrowserWindow {}
export class Notification { static isSupported() { return false; } }
export const dialog = {}, session = {}, shell = {}, ipcMain = {}, safeStorage = {}, powerMonitor = { on: record("powerMonitor.on") };
globalThis.electronCalls = calls;
`;
const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./electron-stub.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}`;

describe('main bundle at run time', () => {
  it('loads with every external import resolved and registers app: before ready', async () => {
    await writeFile(path.join(out, 'electron-stub.mjs'), STUB);
    await writeFile(path.join(out, 'hooks.mjs'), HOOKS);
    const script = `import { register } from 'node:module';
register(${JSON.stringify(new URL(`file://${path.join(out, 'hooks.mjs')}`).href)});
await import(${JSON.stringify(new URL(`file://${result.main}`).href)});
setTimeout(() => { console.log(JSON.stringify(globalThis.electronCalls)); process.exit(0); }, 200);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
    });
    const calls = JSON.parse(stdout.trim()) as string[];
    expect(calls.slice(0, 2)).toEqual(['protocol.registerSchemesAsPrivileged', 'app.enableSandbox']);
    expect(calls).toContain('app.requestSingleInstanceLock');
  });
});
