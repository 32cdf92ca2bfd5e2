#!/usr/bin/env node
// The `aether` command: the bundle `npm run build:main` writes to out/cli while it is current (see
// cli-bundle.js), else the TypeScript sources, directly on Node 24 (type stripping).
// AETHER_CLI_SOURCES=1 runs the sources whatever the bundle; NODE_DEBUG=aether says which ran.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `aether needs Node 24 or newer (this is ${process.version}). Run it through npx or an npm script, which use the project's Node 24.\n`,
  );
  process.exit(2);
}
// The commands that run sessions start Node once more with the heap they need (session-heap.js).
const { restartArgs, restartEnv } = await import('./session-heap.js');
const restart = restartArgs({
  argv: process.argv,
  execArgv: process.execArgv,
  nodeOptions: process.env.NODE_OPTIONS,
  canExec: typeof process.execve === 'function',
});
// The environment is passed on by name: without it, Node 24.9 starts the new program with none.
if (restart) process.execve(process.execPath, [process.execPath, ...restart], restartEnv(process.env));
// Built-in modules come through getBuiltinModule: an ESM import of one builds its ESM facade, which
// loads its lazy parts too (node:util's diff, node:fs's streams), a cost the bundle avoids as well.
// Node keeps what it compiled (the stripped TypeScript included) in its cache folder, so a second
// run starts faster; a Node without the cache runs the same, only slower.
const { enableCompileCache, registerHooks } = process.getBuiltinModule('node:module');
enableCompileCache?.();
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');
const { currentBundle } = await import('./cli-bundle.js');
const debug = /\baether\b/i.test(process.env.NODE_DEBUG ?? '')
  ? (/** @type {string} */ message) => process.stderr.write(`AETHER ${process.pid}: ${message}\n`)
  : () => {};

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle =
  process.env.AETHER_CLI_SOURCES === '1' ? { stale: 'AETHER_CLI_SOURCES=1 asks for them' } : currentBundle(root);
let main;
if ('entry' in bundle) {
  debug(`running the bundle ${bundle.entry}`);
  try {
    ({ main } = await import(pathToFileURL(bundle.entry).href));
  } catch (error) {
    process.stderr.write(
      `aether: the bundle ${bundle.entry} did not load (${error instanceof Error ? error.message : String(error)}); running the sources. npm run build:main rebuilds it.\n`,
    );
  }
} else {
  debug(`running the sources: ${bundle.stale}`);
}
if (!main) {
  // zod's entry loads every locale it ships (64 modules, a third of what `aether tool` loads) for
  // `z.locales`, which nothing here uses: the command gets English only, the locale zod uses anyway.
  const ZOD_LOCALES = /\/node_modules\/zod\/v4\/locales\/index\.js$/;
  const englishOnly = new URL('./zod-locales.js', import.meta.url).href;
  registerHooks?.({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      return ZOD_LOCALES.test(resolved.url) ? { ...resolved, url: englishOnly } : resolved;
    },
  });
  ({ main } = await import('../main/cli/aether.ts'));
}
process.exitCode = await main(process.argv.slice(2));
