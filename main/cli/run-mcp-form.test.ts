import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { aether } from '../../test/aether-cli.ts';
import { FIXTURE } from '../../test/mcp-servers.ts';

// `aether run` has nobody to fill in a form an MCP server asks for mid-call: it declines it, says so
// on stderr naming the server and its question, and the call goes on with the server's answer to that.

let server: FixtureServer | undefined;
let base: string | undefined;

afterEach(async () => {
  await server?.close();
  if (base) await rm(base, { recursive: true, force: true });
  server = undefined;
  base = undefined;
});

it("declines an MCP server's form in a run, saying so, and the call gets the decline", async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-run-form-'));
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'workspace');
  await mkdir(home, { recursive: true });
  await mkdir(workspace);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
  );
  server = await startFixtureServer({
    script: {
      steps: [
        { tool_calls: [{ id: 'call_form', name: 'mcp__fixture__asks-for-release', args: {} }] },
        { text: ['No release then.'] },
      ],
    },
  });
  const ran = await aether(
    [
      'run',
      '--workspace',
      workspace,
      '--sessions',
      path.join(base, 'sessions'),
      '--model',
      `compat:${server.baseURL}#fixture`,
      '--allow-rule',
      'exec(mcp__fixture__asks-for-release)',
      'Cut a release',
    ],
    { AETHERCODEX_HOME: home },
  );
  expect(ran.stderr).toContain(
    'The MCP server "fixture" asked for input ("Which release should be cut?"); declined: nobody is here to answer in this run. Use the panel to answer its forms.',
  );
  expect(ran.stdout).toContain('decline {}');
  expect(ran.stdout).toContain('No release then.');
  expect(ran.code).toBe(0);
});
