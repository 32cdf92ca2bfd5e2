import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// The built-in tools, ssh_exec among them, load no ssh2 until a connection needs it.

const here = path.dirname(fileURLToPath(import.meta.url));

it('makes the built-in tools without loading ssh2, which the first connection loads', async () => {
  const program = `
    import { createRequire } from 'node:module';
    const { builtinTools } = await import(${JSON.stringify(pathToFileURL(path.join(here, '..', 'index.ts')).href)});
    const { loadSsh2 } = await import(${JSON.stringify(pathToFileURL(path.join(here, 'ssh2-module.ts')).href)});
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/ssh2/'));
    const names = builtinTools().map((tool) => tool.name);
    const before = loaded();
    const ssh2 = await loadSsh2();
    console.log(JSON.stringify({ names, before, after: loaded(), client: typeof ssh2.Client }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program]);
  const seen = JSON.parse(stdout) as { names: string[]; before: boolean; after: boolean; client: string };
  expect(seen.names).toContain('ssh_exec');
  expect(seen).toMatchObject({ before: false, after: true, client: 'function' });
});
