// What the packaging test needs around electron-builder: a stand-in Electron distribution, an app
// folder that looks like the repository with fresh bundles, the builder run itself, and the two
// package lists (what package-lock.json says production needs, what the asar holds).
import { spawn, spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { createPackage } from '@electron/asar';

// The marker Electron binaries carry right before their fuse wire (what @electron/fuses looks for).
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * Electron 45's fuse wire as shipped, one byte per fuse in FuseV1Options order ('1' on, '0' off):
 * RunAsNode, CookieEncryption, NodeOptions, NodeCliInspect, AsarIntegrity, OnlyLoadAppFromAsar,
 * BrowserV8Snapshot, FileProtocolExtraPrivileges, WasmTrapHandlers.
 */
export const ELECTRON_DEFAULT_WIRE = '101100011';

/**
 * A folder electron-builder accepts as an unpacked Electron: an `electron` executable that carries a
 * fuse wire laid out as in the real binary (sentinel, version 1, length, states), so @electron/fuses
 * patches it and the test reads it back; a LICENSE; and the default_app.asar every real dist has.
 */
export async function writeStandInElectron(dir: string): Promise<string> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  const executable = join(dir, 'electron');
  const script = '#!/bin/sh\necho "stand-in Electron for packaging tests; it runs nothing" >&2\nexit 1\n# ';
  const wire = Buffer.concat([
    Buffer.from(FUSE_SENTINEL, 'latin1'),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(`${ELECTRON_DEFAULT_WIRE}\n`, 'latin1'),
  ]);
  await writeFile(executable, Buffer.concat([Buffer.from(script, 'latin1'), wire]));
  await chmod(executable, 0o755);
  await writeFile(join(dir, 'LICENSE'), 'Stand-in for the Electron license file.\n');
  // A real asar: electron-builder hashes every asar in resources/ for the integrity check.
  const defaultApp = join(dir, 'default-app-source');
  await mkdir(defaultApp);
  await writeFile(join(defaultApp, 'package.json'), '{ "name": "electron-default-app", "main": "main.js" }\n');
  await writeFile(join(defaultApp, 'main.js'), "// stand-in for Electron's default app\n");
  await createPackage(defaultApp, join(dir, 'resources', 'default_app.asar'));
  await rm(defaultApp, { recursive: true });
  return executable;
}

/** Copies every file git tracks (sources, tests, build/, docs): the app folder then holds all the repository does. */
export async function copyTrackedFiles(repoRoot: string, dest: string): Promise<number> {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' });
  if (listed.status !== 0)
    throw new Error(`git ls-files failed in ${repoRoot}: ${listed.stderr || listed.error?.message}`);
  const files = listed.stdout.split('\0').filter((file) => file.length > 0);
  let copied = 0;
  for (const file of files) {
    await mkdir(dirname(join(dest, file)), { recursive: true });
    try {
      await copyFile(join(repoRoot, file), join(dest, file));
      copied++;
    } catch (error) {
      // A file deleted in the working tree but still tracked is simply not there to pack.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return copied;
}

export interface CommandResult {
  code: number | null;
  output: string;
}

export function runNode(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export interface PackOptions {
  repoRoot: string;
  appDir: string;
  outputDir: string;
  electronDist: string;
  env?: Record<string, string>;
}

// Any download would go to these closed ports and fail at once: the run proves it needs none.
const NO_DOWNLOADS = {
  ELECTRON_MIRROR: 'http://127.0.0.1:9/',
  ELECTRON_BUILDER_BINARIES_MIRROR: 'http://127.0.0.1:9/',
  ELECTRON_GET_USE_PROXY: '',
};

// electron-builder silences its log when it sees VITEST in the environment; the test reads that log.
function outsideVitest(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
}

/**
 * `electron-builder --linux dir` with the repository's configuration file, from the repository (so
 * production dependencies are collected from its node_modules, as `npm run dist` does), packing
 * the app folder given.
 */
export function packLinuxDir(options: PackOptions): Promise<CommandResult> {
  const cli = join(options.repoRoot, 'node_modules', 'electron-builder', 'cli.js');
  return runNode(
    [
      cli,
      '--linux',
      'dir',
      '--config',
      'build/electron-builder.config.ts',
      '--publish',
      'never',
      `-c.directories.app=${options.appDir}`,
      `-c.directories.output=${options.outputDir}`,
    ],
    {
      cwd: options.repoRoot,
      env: { ...outsideVitest(), ...NO_DOWNLOADS, ELECTRON_DIST: options.electronDist, ...options.env },
    },
  );
}

interface Lockfile {
  packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean; os?: string[]; cpu?: string[] }>;
}

/** Whether npm installs a package whose `os` (or `cpu`) field is `allowed` on this `value`. */
function matches(allowed: string[] | undefined, value: string): boolean {
  if (!allowed) return true;
  if (allowed.includes(`!${value}`)) return false;
  return allowed.some((entry) => !entry.startsWith('!')) ? allowed.includes(value) : true;
}

/**
 * Package names package-lock.json installs for production. Dev-only ones carry `dev: true`;
 * `devOptional: true` marks one a dev dependency needs and a production package takes only as an
 * optional peer, which a production install leaves out; an optional package for another OS or CPU
 * (a prebuilt binary) is not installed on this one.
 */
export async function productionPackages(lockfilePath: string): Promise<Set<string>> {
  const lock = JSON.parse(await readFile(lockfilePath, 'utf8')) as Lockfile;
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || entry.devOptional) continue;
    // A platform's optional package (a prebuilt binary for another OS or CPU) is not installed here.
    if (entry.optional && !(matches(entry.os, process.platform) && matches(entry.cpu, process.arch))) continue;
    names.add(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return names;
}

/** Package names with a folder of their own inside the asar, at any depth of node_modules. */
export function packagesInAsar(entries: readonly string[]): Set<string> {
  const names = new Set<string>();
  const all = new Set(entries);
  const packageDir = /\/node_modules\/((?:@[^/]+\/)?[^/@][^/]*)$/;
  for (const entry of entries) {
    const match = packageDir.exec(entry);
    if (match?.[1] && all.has(`${entry}/package.json`)) names.add(match[1]);
  }
  return names;
}

/**
 * Bare module specifiers (packages, not node: built-ins) a bundle imports or requires. A keyword
 * counts only where a statement or expression can hold it, not inside a name or a string such as
 * `"history:import": …` (a word after `:`, `.`, `-` or a quote is part of something else).
 */
export function bareImports(code: string): Set<string> {
  const found = new Set<string>();
  const notPartOfAName = String.raw`(?<![\w$.:'"-])`;
  const patterns = [
    new RegExp(String.raw`${notPartOfAName}from\s*["']([^"'./][^"']*)["']`, 'g'),
    new RegExp(String.raw`${notPartOfAName}import\s*\(\s*["']([^"'./][^"']*)["']\s*\)`, 'g'),
    new RegExp(String.raw`${notPartOfAName}require\s*\(\s*["']([^"'./][^"']*)["']\s*\)`, 'g'),
    new RegExp(String.raw`${notPartOfAName}import\s*["']([^"'./][^"']*)["']`, 'g'),
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier && !specifier.startsWith('node:') && !builtinModules.includes(specifier)) found.add(specifier);
    }
  }
  return found;
}
