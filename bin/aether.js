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
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../main/cli/aether.ts');
process.exitCode = await main(process.argv.slice(2));
