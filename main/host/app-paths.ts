import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// Where the panel keeps its settings outside Electron: $AETHERCODEX_HOME, else ~/.aethercodex.
// (Electron uses its user-data folder instead.)

export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env['AETHERCODEX_HOME'];
  return path.resolve(chosen && chosen.length > 0 ? chosen : path.join(os.homedir(), '.aethercodex'));
}

/** The repository (or unpacked app) root: two folders above main/host/. */
export const APP_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The built renderer that the web host serves. */
export const RENDERER_DIR = path.join(APP_ROOT, 'out', 'renderer');

/** The app's version, from its package.json. */
export async function appVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(APP_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

/**
 * Where the model catalog fetched from models.dev is kept, and where from: `AETHERCODEX_CATALOG_URL`
 * moves it, `off` keeps to the catalog already kept (or the bundled one).
 */
export function catalogRefreshOptions(env: NodeJS.ProcessEnv = process.env): {
  folder: string;
  url?: string;
  online?: boolean;
} {
  const url = env['AETHERCODEX_CATALOG_URL'];
  return {
    folder: path.join(configHome(env), 'catalog'),
    ...(url === 'off' ? { online: false } : url ? { url } : {}),
  };
}
