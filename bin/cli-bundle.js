// Which code the `aether` command runs. `npm run build:main` also bundles the command line into
// out/cli (build/cli-bundle.ts): a few pre-built files in place of ~90 TypeScript modules stripped
// one by one. The bundle runs only while it is current — every file it was built from (the
// sources, the dependencies bundled into it, package.json) still has the modification time and
// size it had then — and the sources run otherwise, so an edited source never runs stale.
// (Built-in modules through getBuiltinModule, not imported: see aether.js.)
const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

export const MANIFEST = 'manifest.json';
export const MANIFEST_FORMAT = 1;

/**
 * The bundle's entry file in `dir`, or why the sources must run instead.
 * @param {string} root the repository, which the manifest's input paths are relative to
 * @param {string} dir the bundle's folder
 * @returns {{ entry: string } | { stale: string }}
 */
export function currentBundle(root, dir = path.join(root, 'out', 'cli')) {
  try {
    return check(root, dir);
  } catch (error) {
    // A file that cannot be read or a manifest of the wrong shape: the sources are always right.
    return {
      stale: `the bundle in ${dir} could not be checked: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * @param {string} root
 * @param {string} dir
 * @returns {{ entry: string } | { stale: string }}
 */
function check(root, dir) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8'));
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT')
      return { stale: `there is no bundle in ${dir} (npm run build:main makes it)` };
    throw error;
  }
  if (manifest?.format !== MANIFEST_FORMAT || typeof manifest.entry !== 'string' || !Array.isArray(manifest.inputs))
    return { stale: `${path.join(dir, MANIFEST)} is not a manifest this launcher reads` };
  const entry = path.join(dir, manifest.entry);
  if (!statSync(entry, { throwIfNoEntry: false })?.isFile()) return { stale: `${entry} is missing` };
  // Some 230 files: a plain concatenation and one options object keep this to a few milliseconds.
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  const options = { throwIfNoEntry: false };
  for (const [file, mtimeMs, size] of manifest.inputs) {
    const now = statSync(prefix + file, options);
    if (!now) return { stale: `${file}, which the bundle was built from, is gone` };
    if (now.mtimeMs !== mtimeMs || now.size !== size) return { stale: `${file} changed since the bundle was built` };
  }
  return { entry };
}
