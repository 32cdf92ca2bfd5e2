import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { modelFor } from '../../test/agent-kit.ts';
import { startRemoteEverything, type RemoteEverything } from '../../test/mcp-remote-server.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { sessionFileOf } from '../session/session-log.ts';
import { StatusRecorder } from '../status/sink.ts';
import { EnvSecretStore } from '../tools/mcp/mcp-secrets.ts';
import { McpServers } from '../tools/mcp/mcp-servers.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';

// A whole turn through a remote MCP server whose Authorization header names a secret: the call
// works, and the secret is in none of the files the session wrote, nor in what the model was sent,
// nor in the events the panel got.

const dirs = useTempWorkspace('aether-mcp-secret-log-');
const TOKEN = 'tok-51c0ffee9d2a7b';
let remote: RemoteEverything | null = null;
let model: FixtureServer | null = null;
let mcp: McpServers | null = null;
let session: AgentSession | null = null;

afterEach(async () => {
  await session?.close();
  await mcp?.close();
  await model?.close();
  await remote?.close();
  session = mcp = model = remote = null;
});

it('keeps a header secret out of the session log, the model request and the panel events', async () => {
  remote = await startRemoteEverything(TOKEN);
  const home = path.join(dirs.root, 'home');
  await mkdir(home);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      mcpServers: { hosted: { url: remote.url, headers: { Authorization: 'Bearer ${secret:TOKEN}' } } },
    }),
  );
  mcp = new McpServers({ home, workspace: dirs.workspace, secrets: new EnvSecretStore({ TOKEN }) });
  await mcp.start();
  model = await startFixtureServer({
    script: {
      steps: [{ tool_calls: [{ id: 'c1', name: 'mcp__hosted__get-sum', args: { a: 40, b: 2 } }] }, { text: ['42.'] }],
    },
  });
  const sink = new StatusRecorder();
  session = await AgentSession.start({
    root: dirs.sessionsRoot,
    workspace: dirs.workspace,
    model: modelFor('openai', model),
    sink,
    tools: mcp.tools(),
    rules: ALLOW_ALL,
  });
  session.send('Add 40 and 2 on the hosted server.');
  await session.idle();

  const log = await readFile(sessionFileOf(dirs.sessionsRoot, session.id), 'utf8');
  expect(log).toContain('mcp__hosted__get-sum');
  expect(log).toContain('42');
  for (const file of await sessionFiles(dirs.root)) expect(await readFile(file, 'utf8')).not.toContain(TOKEN);
  expect(JSON.stringify(model.requests)).not.toContain(TOKEN);
  expect(JSON.stringify(sink.events)).not.toContain(TOKEN);
}, 30_000);

async function sessionFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
