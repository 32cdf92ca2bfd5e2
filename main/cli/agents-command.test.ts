import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { startAether } from '../../test/aether-cli.ts';

// `aether agents` and `aether run --agent`, as a person runs them: a workspace's agent waits for
// its approval, runs as itself once approved (its instructions sent, its tools only), and a file
// that cannot be read is named with its line.

let base: string;
let workspace: string;
let server: FixtureServer;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-agents-cli-')));
  workspace = path.join(base, 'ws');
  await mkdir(path.join(workspace, '.aethercodex', 'agents'), { recursive: true });
  await writeFile(
    path.join(workspace, '.aethercodex', 'agents', 'tidy.md'),
    '---\nname: tidy\ndescription: Tidies up.\ntools: read_file, list_dir\n---\nTidy the folder, gently.\n',
  );
  await writeFile(
    path.join(workspace, '.aethercodex', 'agents', 'broken.md'),
    '---\nname: broken\ndescription x\n---\n',
  );
  server = await startFixtureServer({ script: { steps: [{ text: ['Tidied.'] }] } });
});

afterEach(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

const env = () => ({ AETHERCODEX_HOME: path.join(base, 'home'), AETHERCODEX_SESSIONS: path.join(base, 'sessions') });
const aether = (...args: string[]) => startAether(args, env()).done;

it('lists the agents, names a broken file by its line, and runs a workspace agent only once approved', async () => {
  const listed = await aether('agents', 'list', '--workspace', workspace);
  expect(listed.stdout).toContain('explore (builtin) runs');
  expect(listed.stdout).toContain('tidy (workspace');
  expect(listed.stdout).toContain('waits for approval');
  expect(listed.stderr).toContain('skipped .aethercodex/agents/broken.md:3:');
  expect(listed.code).toBe(1);

  const model = `compat:${server.baseURL}#fixture`;
  const refused = await aether('run', '--agent', 'tidy', '--workspace', workspace, '--model', model, 'Tidy up.');
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('aether agents approve tidy');
  expect(server.requests).toHaveLength(0);

  const approved = await aether('agents', 'approve', 'tidy', '--workspace', workspace);
  expect(approved.code).toBe(0);
  expect(approved.stdout).toContain('Tidy the folder, gently.');

  const ran = await aether('run', '--agent', 'tidy', '--workspace', workspace, '--model', model, 'Tidy up.');
  expect(ran.code).toBe(0);
  const body = server.requests.at(-1)!.body;
  expect(JSON.stringify(body['messages'])).toContain('Tidy up.');
  expect(JSON.stringify(body)).toContain('Tidy the folder, gently.');
  const tools = (body['tools'] as { function?: { name: string } }[]).map((tool) => tool.function?.name);
  expect(tools).toEqual(expect.arrayContaining(['read_file', 'list_dir']));
  for (const other of ['write_file', 'patch_file', 'exec', 'search_files', 'agent']) expect(tools).not.toContain(other);
});
