import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILESYSTEM } from '../../../test/mcp-servers.ts';
import { makeSandboxScene, PLANTED_KEY, removeSandboxScene, type SandboxScene } from '../../../test/sandbox-setup.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { serverSandbox, type McpServerConfig } from './mcp-config.ts';
import { McpServers } from './mcp-servers.ts';
import type { ServerApprovalRequest } from './mcp-approvals.ts';

// A workspace's stdio MCP server runs in the sandbox: server-filesystem, told it may use the whole
// folder above the workspace, still writes only the workspace and reads nothing the rules do not name.

let scene: SandboxScene;
let servers: McpServers | null = null;
beforeEach(async () => {
  scene = await makeSandboxScene();
});
afterEach(async () => {
  await servers?.close();
  servers = null;
  await removeSandboxScene(scene);
});

/** Where the server's code and its dependencies are: all it reads besides the workspace and the system. */
const MODULES = path.resolve(FILESYSTEM, '..', '..', '..', '..');

async function workspaceServer(sandbox: unknown): Promise<ServerApprovalRequest[]> {
  const file = path.join(scene.workspace, '.aethercodex', 'mcp.json');
  await mkdir(path.dirname(file), { recursive: true });
  const entry = {
    command: process.execPath,
    args: [FILESYSTEM, scene.root],
    ...(sandbox === undefined ? {} : { sandbox }),
  };
  await writeFile(file, JSON.stringify({ mcpServers: { fs: entry } }));
  const asked: ServerApprovalRequest[] = [];
  const home = path.join(scene.root, 'app-home');
  await mkdir(home);
  servers = new McpServers({
    home,
    workspace: scene.workspace,
    approve: async (_server, request) => {
      asked.push(request);
      return true;
    },
  });
  await servers.start();
  return asked;
}

function registryWith(mcp: McpServers): ToolRegistry {
  const sessionDir = path.join(scene.root, 'session');
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
  const registry = new ToolRegistry({
    workspace: scene.workspace,
    sessionDir,
    sink: new StatusRecorder(),
    gate,
    readableRoots: [],
  });
  registry.register(...mcp.tools());
  return registry;
}

describe('a sandboxed MCP server', () => {
  it('works on the workspace and cannot read or write outside it, and its approval says so', async () => {
    await writeFile(path.join(scene.workspace, 'note.txt'), 'in the workspace\n');
    await mkdir(path.join(scene.workspace, 'private'));
    await writeFile(path.join(scene.workspace, 'private', 'token.txt'), 'hidden from the server\n');
    const asked = await workspaceServer({ readable: [MODULES], hidden: ['private'] });
    expect(asked[0]?.detail).toContain('It runs in the sandbox: writes the workspace');
    expect(asked[0]?.detail).toContain(`it reads only the workspace, ${MODULES} and the system`);
    const registry = registryWith(servers!);
    let n = 0;
    const call = (name: string, args: Record<string, unknown>) =>
      registry.call({ callId: `c${++n}`, name: `mcp__fs__${name}`, args });

    const read = await call('read_text_file', { path: path.join(scene.workspace, 'note.txt') });
    expect(read.content).toContain('in the workspace');
    const wrote = await call('write_file', { path: path.join(scene.workspace, 'made.txt'), content: 'by the server' });
    expect(wrote.isError).toBe(false);
    expect(readFileSync(path.join(scene.workspace, 'made.txt'), 'utf8')).toBe('by the server');

    // Inside the folder the server allows, the sandbox hides what its rules hide.
    const hidden = await call('read_text_file', { path: path.join(scene.workspace, 'private', 'token.txt') });
    expect(hidden.content).not.toContain('hidden from the server');
    // Outside it, neither the server (its roots are the workspace) nor the sandbox lets it read or write.
    const outside = await call('read_text_file', { path: path.join(scene.outside, 'readme.txt') });
    expect(outside.content).not.toContain('outside the workspace');
    const key = await call('read_text_file', { path: path.join(scene.home, '.ssh', 'id_ed25519') });
    expect(key.content).not.toContain(PLANTED_KEY);
    const escape = await call('write_file', { path: path.join(scene.outside, 'made.txt'), content: 'escaped' });
    expect(escape.isError).toBe(true);
    expect(existsSync(path.join(scene.outside, 'made.txt'))).toBe(false);
  }, 30_000);

  it('runs a workspace server outside only when its entry says "sandbox": false, and the approval says that', async () => {
    await mkdir(path.join(scene.workspace, 'private'));
    await writeFile(path.join(scene.workspace, 'private', 'token.txt'), 'hidden from the server\n');
    const asked = await workspaceServer(false);
    expect(asked[0]?.detail).toContain('It runs outside the sandbox, with your permissions ("sandbox": false).');
    const registry = registryWith(servers!);
    const read = await registry.call({
      callId: 'c1',
      name: 'mcp__fs__read_text_file',
      args: { path: path.join(scene.workspace, 'private', 'token.txt') },
    });
    expect(read.content).toContain('hidden from the server');
  }, 30_000);

  it('sandboxes workspace servers by default and the person’s own when they ask', () => {
    const server = (origin: McpServerConfig['origin'], sandbox?: unknown): McpServerConfig =>
      ({
        name: 's',
        origin,
        file: 'mcp.json',
        disabled: false,
        transport: { command: 'x', args: [], env: {}, ...(sandbox === undefined ? {} : { sandbox }) },
      }) as McpServerConfig;
    expect(serverSandbox(server('workspace'))?.network).toEqual([]);
    expect(serverSandbox(server('user'))).toBeNull();
    expect(serverSandbox(server('user', { network: ['registry.npmjs.org'] }))?.network).toEqual(['registry.npmjs.org']);
    expect(serverSandbox(server('workspace', false))).toBeNull();
  });
});
