// Whether `npm test` has just built out/, so the packaging test can pack that build instead of
// building the same bundles and renderer again.
import { statSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';

/** Set by `npm test` (test/run-all.ts) for its last stage: the time (ms since the epoch) its build step began. */
export const FRESH_BUILD_ENV = 'AETHER_FRESH_BUILD_SINCE';

/** What `npm run build` writes that the packed app holds: the main process, the preload, the renderer. */
const BUILT_PARTS = ['main/index.js', 'preload/index.cjs', 'renderer/index.html'];

/**
 * The repository's own out/ when the build of this very `npm test` run wrote it: `npm test` says when
 * its build step began, and every part the app is packed from was written since. Otherwise (the test
 * run alone, or out/ older than that build) null, and the test builds its own bundles.
 */
export function freshBuildOutput(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const since = Number(env[FRESH_BUILD_ENV]);
  if (!Number.isFinite(since) || since <= 0) return null;
  const out = join(repoRoot, 'out');
  for (const part of BUILT_PARTS) {
    const written = statSync(join(out, part), { throwIfNoEntry: false })?.mtimeMs;
    if (written === undefined || written < since) return null;
  }
  return out;
}

/** Copies the built main process, preload and renderer of `out` into `dest` (an app's out/). */
export async function copyBuiltOutput(out: string, dest: string): Promise<void> {
  for (const part of ['main', 'preload', 'renderer']) await cp(join(out, part), join(dest, part), { recursive: true });
}
