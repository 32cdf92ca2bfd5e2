import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The system programs the tests run for real, and where to find them on this machine: the
// preflight (test/preflight.ts), the sshd helper and the Playwright config all look here, so a
// program found by one is the program the others use.

export type Env = Readonly<Record<string, string | undefined>>;

/** A program found, or why not. */
export type Found = { path: string } | { missing: string };

export const ROOT = path.resolve(import.meta.dirname, '..');

/** An executable file named `name` in a folder of the PATH, or null. */
export function onPath(name: string, env: Env, folders = pathFolders(env)): string | null {
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function pathFolders(env: Env): string[] {
  return (env['PATH'] ?? '').split(path.delimiter).filter(Boolean);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An explicit override (an environment variable naming a file), checked before any search. */
function override(variable: string, env: Env): Found | null {
  const value = env[variable];
  if (value === undefined || value === '') return null;
  return isExecutable(value) ? { path: value } : { missing: `${variable}=${value} is not an executable file` };
}

/**
 * sshd: AETHER_SSHD, else the PATH and the sbin folder beside each bin folder on it (Debian keeps
 * /usr/sbin off a normal user's PATH).
 */
export function findSshd(env: Env): Found {
  const explicit = override('AETHER_SSHD', env);
  if (explicit) return explicit;
  const folders = pathFolders(env).flatMap((folder) =>
    path.basename(folder) === 'bin' ? [folder, path.join(path.dirname(folder), 'sbin')] : [folder],
  );
  const found = onPath('sshd', env, folders);
  return found ? { path: found } : { missing: 'not on the PATH, nor in the sbin folder beside a bin folder on it' };
}

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];
const MAC_APPS = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * Chromium for the end-to-end specs: AETHER_CHROMIUM, else a Chromium or Chrome on the PATH (or in
 * /Applications), else the build `npx playwright install chromium` downloads.
 */
export function findChromium(env: Env, platform: NodeJS.Platform = process.platform): Found {
  const explicit = override('AETHER_CHROMIUM', env);
  if (explicit) return explicit;
  for (const name of CHROMIUM_NAMES) {
    const found = onPath(name, env);
    if (found) return { path: found };
  }
  if (platform === 'darwin') {
    const app = MAC_APPS.find(isExecutable);
    if (app) return { path: app };
  }
  const playwright = playwrightChromium(env, platform);
  if (playwright) return { path: playwright };
  return {
    missing: `none of ${CHROMIUM_NAMES.join(', ')} is on the PATH, and Playwright's Chromium is not downloaded`,
  };
}

/** Where Playwright keeps its browsers (its documented defaults, or PLAYWRIGHT_BROWSERS_PATH). */
function playwrightBrowsers(env: Env, platform: NodeJS.Platform): string {
  const configured = env['PLAYWRIGHT_BROWSERS_PATH'];
  if (configured === '0') return path.join(ROOT, 'node_modules', 'playwright-core', '.local-browsers');
  if (configured) return configured;
  const home = env['HOME'] ?? os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] ?? home, 'ms-playwright');
  return path.join(env['XDG_CACHE_HOME'] ?? path.join(home, '.cache'), 'ms-playwright');
}

/** Executables inside a `chromium-<revision>` folder, per platform, as Playwright lays them out. */
const PLAYWRIGHT_LAYOUTS = [
  'chrome-linux64/chrome',
  'chrome-linux/chrome',
  'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
  'chrome-win64/chrome.exe',
  'chrome-win/chrome.exe',
];

/**
 * The Chromium of the revision this project's Playwright expects, when it was downloaded. Read
 * from browsers.json rather than by importing playwright-core, which takes seconds to load.
 */
function playwrightChromium(env: Env, platform: NodeJS.Platform): string | null {
  let revision: string | undefined;
  try {
    const manifest = JSON.parse(
      readFileSync(path.join(ROOT, 'node_modules', 'playwright-core', 'browsers.json'), 'utf8'),
    ) as {
      browsers?: { name?: string; revision?: string }[];
    };
    revision = manifest.browsers?.find((browser) => browser.name === 'chromium')?.revision;
  } catch {
    return null; // Playwright is not installed yet (npm ci has not run).
  }
  if (!revision) return null;
  const folder = path.join(playwrightBrowsers(env, platform), `chromium-${revision}`);
  if (!existsSync(folder)) return null;
  return PLAYWRIGHT_LAYOUTS.map((layout) => path.join(folder, layout)).find(isExecutable) ?? null;
}
