#!/usr/bin/env node
// The `aether` command: runs the TypeScript sources directly on Node 24 (type stripping).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `aether needs Node 24 or newer (this is ${process.version}). Run it through npx or an npm script, which use the project's Node 24.\n`,
  );
  process.exit(2);
}
// Node keeps what it compiled (the stripped TypeScript included) in its cache folder, so a second
// run starts faster; a Node without the cache runs the same, only slower.
const { enableCompileCache, registerHooks } = await import('node:module');
enableCompileCache?.();
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
const { main } = await import('../main/cli/aether.ts');
process.exitCode = await main(process.argv.slice(2));
