// Packs the app the way `npm run dist` does on Linux — this repository's electron-builder
// configuration, its node_modules, fresh bundles — against a stand-in Electron, then reads what
// came out: the asar's contents, the fuse wire of the packed executable, the update metadata.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { extractAll, extractFile, listPackage } from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from './bundle.ts';
import { copyBuiltOutput, freshBuildOutput } from './fresh-build.ts';
import { electronFuses } from './fuses.ts';
import {
  bareImports,
  copyTrackedFiles,
  ELECTRON_DEFAULT_WIRE,
  packagesInAsar,
  packLinuxDir,
  productionPackages,
  runNode,
  writeStandInElectron,
} from './packaging-harness.ts';
import type { CommandResult } from './packaging-harness.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const FEED = 'https://updates.example.test/aethercodex/';
// Optional native pieces of ssh2 the configuration leaves out on purpose (see build/electron-builder.config.ts).
const LEFT_OUT_NATIVE = ['buildcheck', 'cpu-features', 'nan'];

let work = '';
let appDir = '';
let unpacked = '';
let pack: CommandResult = { code: null, output: '' };
let entries: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aether-pack-'));
  appDir = join(work, 'app');
  await copyTrackedFiles(repoRoot, appDir);
  // `npm test` built out/ a moment ago (its build step): pack that; run alone, build afresh.
  const built = freshBuildOutput(repoRoot);
  if (built) await copyBuiltOutput(built, join(appDir, 'out'));
  else await buildOutput(join(appDir, 'out'));
  const electronDist = join(work, 'electron');
  await writeStandInElectron(electronDist);
  pack = await packLinuxDir({
    repoRoot,
    appDir,
    outputDir: join(work, 'dist'),
    electronDist,
    env: { AETHERCODEX_UPDATE_FEED: FEED },
  });
  unpacked = join(work, 'dist', 'linux-unpacked');
  if (pack.code === 0)
    entries = listPackage(join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((entry) =>
      entry.replaceAll('\\', '/'),
    );
}, 240_000);

/** Bundles the main process and the preload, and builds the renderer, into `outDir`. */
async function buildOutput(outDir: string): Promise<void> {
  await bundle({ root: repoRoot, outDir });
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const renderer = await runNode(
    [
      vite,
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--outDir',
      join(outDir, 'renderer'),
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: repoRoot },
  );
  if (renderer.code !== 0) throw new Error(`renderer build failed:\n${renderer.output}`);
}

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true });
  return found
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}

describe('the unpacked Linux app', () => {
  it('is built from the local Electron dist without downloading anything', () => {
    expect(pack.output).toContain('using custom unpacked Electron distribution');
    expect(pack.code, pack.output).toBe(0);
    expect(existsSync(join(unpacked, 'aethercodex'))).toBe(true);
  });

  it('holds only the bundles, package.json and node_modules at the top of app.asar', () => {
    expect(entries.filter((entry) => entry.split('/').length === 2).sort()).toEqual([
      '/node_modules',
      '/out',
      '/package.json',
    ]);
  });

  it('packs exactly the built main, preload and renderer files, without their source maps', async () => {
    const built = (await filesUnder(join(appDir, 'out'))).filter((file) => !file.endsWith('.map'));
    expect(built).toContain('main/index.js');
    expect(built).toContain('preload/index.cjs');
    expect(built).toContain('renderer/index.html');
    const packed = entries.filter(
      (entry) => entry.startsWith('/out/') && entries.every((other) => !other.startsWith(`${entry}/`)),
    );
    expect(packed.map((entry) => entry.slice('/out/'.length)).sort()).toEqual(built.sort());
  });

  it('packs exactly the production packages package-lock.json installs, less the native extras of ssh2', async () => {
    const expected = [...(await productionPackages(join(repoRoot, 'package-lock.json')))].filter(
      (name) => !LEFT_OUT_NATIVE.includes(name),
    );
    expect([...packagesInAsar(entries)].sort()).toEqual(expected.sort());
  });

  it('leaves out every dev dependency, react and the bundlers included', async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const packed = packagesInAsar(entries);
    expect(packed.has('zod')).toBe(true);
    // A dev dependency a production package needs too (saxes, which jsdom parses XML with) is production's.
    const production = await productionPackages(join(repoRoot, 'package-lock.json'));
    const devOnly = Object.keys(manifest.devDependencies).filter((name) => packed.has(name) && !production.has(name));
    expect(Object.keys(manifest.devDependencies)).toContain('react');
    expect(devOnly).toEqual([]);
  });

  it('leaves out sources, tests, declarations and source maps, and keeps native binaries out of the asar', async () => {
    expect(entries).toContain('/out/main/index.js');
    expect(entries.filter((entry) => /\.(ts|tsx|mts|cts|map)$/.test(entry) || /\.test\./.test(entry))).toEqual([]);
    // The pseudo-terminal's binary is the one native file, beside the asar where a process can load it.
    const native = (await filesUnder(join(unpacked, 'resources'))).filter((file) => file.endsWith('.node'));
    expect(native).toEqual([
      `app.asar.unpacked/node_modules/@lydell/node-pty-${process.platform}-${process.arch}/pty.node`,
    ]);
  });

  it('starts the bundled main process: package.json points at out/main/index.js', () => {
    const manifest = JSON.parse(extractFile(join(unpacked, 'resources', 'app.asar'), 'package.json').toString()) as {
      main: string;
    };
    expect(manifest.main).toBe('out/main/index.js');
    expect(entries).toContain('/out/main/index.js');
  });

  it('names the Linux app id after the .desktop file, so launchers group the windows', () => {
    const manifest = JSON.parse(extractFile(join(unpacked, 'resources', 'app.asar'), 'package.json').toString()) as {
      desktopName?: string;
    };
    expect(manifest.desktopName).toBe('aethercodex.desktop');
  });

  it('loads every package the main bundles import from the packed app alone', async () => {
    const mainDir = join(appDir, 'out', 'main');
    const specifiers = new Set<string>();
    for (const file of (await readdir(mainDir)).filter((name) => name.endsWith('.js'))) {
      for (const specifier of bareImports(await readFile(join(mainDir, file), 'utf8'))) specifiers.add(specifier);
    }
    specifiers.delete('electron'); // built into the Electron runtime
    expect(specifiers.size).toBeGreaterThan(0);
    const extracted = join(work, 'extracted');
    extractAll(join(unpacked, 'resources', 'app.asar'), extracted);
    const probe = join(extracted, 'probe.mjs');
    await writeFile(
      probe,
      `const failed = [];\nfor (const s of ${JSON.stringify([...specifiers])}) { try { await import(s); } catch (e) { failed.push(s + ': ' + e.message); } }\nconsole.log(JSON.stringify(failed));\n`,
    );
    const result = await runNode([probe], { cwd: extracted });
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(result.output.trim().split('\n').at(-1) ?? 'null')).toEqual([]);
    // Each package's first load: a few seconds each on a loaded machine.
  }, 90_000);

  it('removes the Electron default app a local dist brings along', () => {
    expect(existsSync(join(unpacked, 'resources', 'default_app.asar'))).toBe(false);
  });

  it('writes app-update.yml for the generic feed from AETHERCODEX_UPDATE_FEED', async () => {
    const updateConfig = await readFile(join(unpacked, 'resources', 'app-update.yml'), 'utf8');
    expect(updateConfig).toMatch(/^provider: generic$/m);
    expect(updateConfig).toContain(`url: ${FEED}`);
  });
});

describe('the fuses', () => {
  it('decide RunAsNode, NODE_OPTIONS and --inspect off; cookie encryption, ASAR integrity and ASAR-only loading on', () => {
    expect(electronFuses).toMatchObject({
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
  });

  it('are flipped in the packed executable, from Electron defaults to build/fuses.ts', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'aethercodex'));
    const decided = Object.entries(electronFuses).filter(([key]) => /^\d+$/.test(key));
    expect(decided).toHaveLength(ELECTRON_DEFAULT_WIRE.length);
    for (const [index, on] of decided) {
      expect(wire[Number(index) as FuseV1Options], FuseV1Options[Number(index)]).toBe(
        on ? FuseState.ENABLE : FuseState.DISABLE,
      );
    }
    // The stand-in starts from Electron's defaults, so at least the six hardened fuses had to change.
    const changed = decided.filter(([index, on]) => ELECTRON_DEFAULT_WIRE[Number(index)] !== (on ? '1' : '0'));
    expect(changed.length).toBeGreaterThanOrEqual(6);
  });
});
