import type { ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEverything } from '../../../test/mcp-remote-server.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { McpServers } from './mcp-servers.ts';

// Remote MCP servers: server-everything started here over streamable HTTP, and over the older SSE
// transport only (the client falls back to it at the same URL's SSE endpoint).

let root: string;
let workspace: string;
let sessionDir: string;
let home: string;
let server: ChildProcess | null = null;
let servers: McpServers | null = null;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-mcp-remote-'));
  home = path.join(root, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await servers?.close();
  servers = null;
  server?.kill();
  server = null;
  await rm(root, { recursive: true, force: true });
});

/** Starts server-everything with one transport; afterEach stops it. */
async function everything(transport: 'streamableHttp' | 'sse'): Promise<number> {
  const started = await startEverything(transport);
  server = started.child;
  return started.port;
}

async function sumThrough(url: string): Promise<string> {
  await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url } } }));
  servers = new McpServers({ home, workspace });
  await servers.start();
  expect(servers.states()[0]).toMatchObject({ status: 'ready' });
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
  const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate });
  registry.register(...servers.tools());
  const outcome = await registry.call({ callId: 'r1', name: 'mcp__remote__get-sum', args: { a: 40, b: 2 } });
  expect(outcome.isError).toBe(false);
  return outcome.content;
}

describe('remote MCP servers', () => {
  it('calls a tool of server-everything over streamable HTTP', async () => {
    const port = await everything('streamableHttp');
    expect(await sumThrough(`http://127.0.0.1:${port}/mcp`)).toContain('42');
  }, 30_000);

  it('falls back to SSE for a server that only speaks it', async () => {
    const port = await everything('sse');
    expect(await sumThrough(`http://127.0.0.1:${port}/sse`)).toContain('42');
  }, 30_000);
});
