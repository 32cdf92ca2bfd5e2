import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILESYSTEM } from '../../../test/mcp-servers.ts';
import { makeSandboxScene, removeSandboxScene, type SandboxScene } from '../../../test/sandbox-setup.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import type { McpServerConfig } from './mcp-config.ts';
import { sandboxView } from './mcp-sandbox-view.ts';
import { applyMcpChange, mcpScreen } from './mcp-screen.ts';
import type { ServerApprovalRequest } from './mcp-approvals.ts';
import { McpPreferences } from './mcp-preferences.ts';
import { McpServers } from './mcp-servers.ts';

// The MCP screen's sandbox switch with the real bwrap and server-filesystem: the person's own
// server, outside the sandbox by default, is put in it and taken out again; the choice is kept in
// the app's home and read by the next session. Inside, the workspace's .git/hooks is read-only,
// which tells the two apart from what the server can write.

let scene: SandboxScene;
let home: string;
const opened: McpServers[] = [];
beforeEach(async () => {
  scene = await makeSandboxScene();
  home = path.join(scene.root, 'app-home');
  await mkdir(home);
  await mkdir(path.join(scene.workspace, '.git', 'hooks'), { recursive: true });
  const entry = { command: process.execPath, args: [FILESYSTEM, scene.workspace] };
  await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { fs: entry } }));
});
afterEach(async () => {
  for (const servers of opened.splice(0)) await servers.close();
  await removeSandboxScene(scene);
});

async function started(): Promise<McpServers> {
  const servers = new McpServers({ home, workspace: scene.workspace });
  opened.push(servers);
  await servers.start();
  return servers;
}

let n = 0;
/** Asks the server to write a hook: true when the file is there afterwards. */
async function writesHook(servers: McpServers): Promise<boolean> {
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
  const registry = new ToolRegistry({
    workspace: scene.workspace,
    sessionDir: path.join(scene.root, 'session'),
    sink: new StatusRecorder(),
    gate,
    readableRoots: [],
  });
  registry.register(...servers.tools());
  const file = path.join(scene.workspace, '.git', 'hooks', `post-commit-${++n}`);
  await registry.call({ callId: `c${n}`, name: 'mcp__fs__write_file', args: { path: file, content: 'echo hi' } });
  return existsSync(file);
}

const view = async (servers: McpServers) =>
  (await mcpScreen(servers, home, scene.workspace)).servers.find((server) => server.name === 'fs')?.sandbox;

describe('the sandbox switch of the MCP servers screen', () => {
  it("puts the person's own server in the sandbox and out again, restarting it, and keeps the choice", async () => {
    const servers = await started();
    expect(await view(servers)).toMatchObject({ state: 'outside', chosen_by: 'default' });
    expect(await writesHook(servers)).toBe(true);

    await applyMcpChange(servers, { action: 'sandbox', name: 'fs', sandboxed: true });
    expect(servers.states()).toMatchObject([{ name: 'fs', status: 'ready' }]);
    expect(await view(servers)).toMatchObject({ state: 'sandboxed', chosen_by: 'person' });
    expect((await view(servers))?.detail).toContain('writes the workspace');
    expect(await writesHook(servers)).toBe(false);
    const kept = JSON.parse(await readFile(path.join(home, 'mcp-preferences.json'), 'utf8')) as unknown;
    expect(kept).toMatchObject({ servers: { fs: { sandboxed: true } } });

    // The next session reads the choice.
    const next = await started();
    expect(await view(next)).toMatchObject({ state: 'sandboxed', chosen_by: 'person' });
    expect(await writesHook(next)).toBe(false);

    await applyMcpChange(servers, { action: 'sandbox', name: 'fs', sandboxed: false });
    expect(await view(servers)).toMatchObject({ state: 'outside', chosen_by: 'person' });
    expect((await view(servers))?.detail).toContain('You chose to run it outside the sandbox');
    expect(await writesHook(servers)).toBe(true);
  }, 60_000);

  it('asks to approve a workspace server saying it runs outside once the person switched its sandbox off', async () => {
    const file = path.join(scene.workspace, '.aethercodex', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { theirs: { command: process.execPath, args: [FILESYSTEM] } } }),
    );
    await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: {} }));
    await new McpPreferences(home).setServerSandboxed('theirs', false);
    const asked: ServerApprovalRequest[] = [];
    const servers = new McpServers({
      home,
      workspace: scene.workspace,
      approve: async (_server, request) => {
        asked.push(request);
        return false;
      },
    });
    opened.push(servers);
    await servers.start();
    expect(asked[0]?.detail).toContain(
      'It runs outside the sandbox, with your permissions (you switched its sandbox off on the MCP servers screen).',
    );
  });

  it('refuses the switch for a server reached by URL, which runs no command here', async () => {
    await writeFile(
      path.join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { web: { url: 'https://example.test/mcp', disabled: true } } }),
    );
    const servers = await started();
    expect(await mcpScreen(servers, home, scene.workspace)).toMatchObject({ servers: [{ sandbox: null }] });
    await expect(applyMcpChange(servers, { action: 'sandbox', name: 'web', sandboxed: true })).rejects.toThrow(
      'The MCP server "web" is reached at https://example.test/mcp: only a command runs in a sandbox.',
    );
  });
});

describe("a command server's sandbox as the screen says it", () => {
  const server = (origin: McpServerConfig['origin'], sandbox?: unknown): McpServerConfig =>
    ({
      name: 's',
      origin,
      file: '/w/.aethercodex/mcp.json',
      disabled: false,
      transport: { command: 'x', args: [], env: {}, ...(sandbox === undefined ? {} : { sandbox }) },
    }) as McpServerConfig;
  const here = { available: true, mechanism: 'bubblewrap', program: '/usr/bin/bwrap' } as const;

  it('names who decided: the default for where it is defined, its entry, or the person', () => {
    expect(sandboxView(server('workspace'), null, here)).toMatchObject({ state: 'sandboxed', chosen_by: 'default' });
    expect(sandboxView(server('workspace', false), null, here)).toEqual({
      state: 'outside',
      detail:
        'Its entry in /w/.aethercodex/mcp.json says "sandbox": false: it has your rights, as any program you start.',
      chosen_by: 'config',
    });
    expect(sandboxView(server('workspace', false), true, here)).toMatchObject({
      state: 'sandboxed',
      chosen_by: 'person',
    });
    expect(sandboxView(server('user', { network: ['registry.npmjs.org'] }), null, here)?.detail).toContain(
      'network to registry.npmjs.org only',
    );
  });

  it('says why no sandbox can start here and how to enable one, for a server that runs only in one', () => {
    const missing = { available: false, reason: 'bubblewrap (bwrap) is not installed.', fix: 'Install it.' } as const;
    expect(sandboxView(server('workspace'), null, missing)).toEqual({
      state: 'unavailable',
      detail:
        'It runs only in the sandbox, and none can start here: bubblewrap (bwrap) is not installed. Install it. Until then it does not start, unless you run it outside.',
      chosen_by: 'default',
    });
    expect(sandboxView(server('workspace'), false, missing)).toMatchObject({ state: 'outside' });
  });
});
