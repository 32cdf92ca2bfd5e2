import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpEchoSchema } from '../../../protocol/echo.ts';
import { EVERYTHING, waitFor } from '../../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { BLOBS_FOLDER, keepResultBlobs, readKeptBlob } from './mcp-blobs.ts';
import { McpServers } from './mcp-servers.ts';
import { mcpEcho } from './mcp-tool.ts';

// An MCP result's binary resources and links on the card: blobs kept in the session's folder by
// hash (the echo names them, Save… reads them back), small image blobs shown, links named.

let root: string;
let sessionDir: string;
let workspace: string;
let servers: McpServers | null = null;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-mcp-res-'));
});

afterEach(async () => {
  await servers?.close();
  servers = null;
  await rm(root, { recursive: true, force: true });
});

const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** server-everything over stdio, from a home's mcp.json, started. */
async function startEverything(): Promise<McpServers> {
  const home = path.join(root, 'home');
  await mkdir(home);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  const started = new McpServers({ home, workspace });
  await started.start();
  return started;
}

describe('binary resources of an MCP result', () => {
  it('keeps a blob in the session folder by its hash (0600) and names it on the card with type, size and hash', async () => {
    const bytes = Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 255]);
    const result: CallToolResult = {
      content: [
        {
          type: 'resource',
          resource: { uri: 'file:///out/report.tar.gz', mimeType: 'application/gzip', blob: base64(bytes) },
        },
      ],
    };
    await keepResultBlobs(result, sessionDir);
    const file = path.join(sessionDir, BLOBS_FOLDER, sha(bytes));
    expect(await readFile(file)).toEqual(bytes);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);

    const echo = mcpEchoSchema.parse(mcpEcho('everything', 'pack', result));
    expect(echo.resources).toEqual([
      {
        type: 'blob',
        uri: 'file:///out/report.tar.gz',
        name: 'report.tar.gz',
        mime_type: 'application/gzip',
        bytes: 8,
        sha256: sha(bytes),
      },
    ]);
    expect(JSON.stringify(echo)).not.toContain(base64(bytes));
    expect(await readKeptBlob(sessionDir, sha(bytes))).toEqual({ data: base64(bytes) });
  });

  it('shows a small image blob on the card, and names a large one without its bytes', async () => {
    const large = Buffer.alloc(300 * 1024, 7);
    const result: CallToolResult = {
      content: [
        { type: 'resource', resource: { uri: 'mem://chart.png', mimeType: 'image/png', blob: base64(PNG) } },
        { type: 'resource', resource: { uri: 'mem://photo.png', mimeType: 'image/png', blob: base64(large) } },
      ],
    };
    await keepResultBlobs(result, sessionDir);
    const [small, big] = mcpEcho('s', 't', result).resources ?? [];
    expect(small?.data).toBe(base64(PNG));
    expect(big?.data).toBeUndefined();
    expect(big?.bytes).toBe(large.length);
    expect(big?.sha256).toBe(sha(large));
  });

  it('names a resource link with its type, size, description and URI, and counts those past twenty', () => {
    const link = {
      type: 'resource_link' as const,
      uri: 'test://static/resource/2',
      name: 'Text Resource 2',
      mimeType: 'text/plain',
      size: 120,
      description: 'Resource 2: plaintext resource',
    };
    const result: CallToolResult = { content: Array.from({ length: 23 }, () => link) };
    const echo = mcpEcho('everything', 'get-resource-links', result);
    expect(echo.resources).toHaveLength(20);
    expect(echo.resources_omitted).toBe(3);
    expect(echo.resources?.[0]).toEqual({
      type: 'link',
      uri: 'test://static/resource/2',
      name: 'Text Resource 2',
      mime_type: 'text/plain',
      bytes: 120,
      description: 'Resource 2: plaintext resource',
    });
  });

  it('leaves a blob it cannot write without a hash, and the result as it was', async () => {
    await writeFile(path.join(sessionDir, BLOBS_FOLDER), 'a file where the folder would be');
    const result: CallToolResult = {
      content: [{ type: 'resource', resource: { uri: 'mem://a.bin', blob: base64('abc') } }],
    };
    await keepResultBlobs(result, sessionDir);
    const [blob] = mcpEcho('s', 't', result).resources ?? [];
    expect(blob).toMatchObject({ type: 'blob', name: 'a.bin', bytes: 3 });
    expect(blob?.sha256).toBeUndefined();
  });

  it('refuses to read a resource by anything but a hash, and says when its file is gone', async () => {
    await expect(readKeptBlob(sessionDir, '../../etc/passwd')).rejects.toThrow(/64 hex digits/);
    await expect(readKeptBlob(null, 'a'.repeat(64))).rejects.toThrow(/No session is open/);
    await expect(readKeptBlob(sessionDir, 'a'.repeat(64))).rejects.toThrow(
      /not in this session's folder.*Call the tool again/,
    );
  });

  it('reads a linked resource from its server for Save…, and says which server does not run', async () => {
    servers = await startEverything();
    const text = await servers.readResource('everything', 'demo://resource/dynamic/text/2');
    expect(text.mime_type).toBe('text/plain');
    expect(Buffer.from(text.data, 'base64').toString()).toMatch(/^Resource 2: This is a plaintext resource/);
    const blob = await servers.readResource('everything', 'demo://resource/dynamic/blob/1');
    expect(Buffer.from(blob.data, 'base64').toString()).toMatch(/^Resource 1: This is a base64 blob/);
    await expect(servers.readResource('nowhere', 'demo://x')).rejects.toThrow(/"nowhere" is not running/);
    await expect(servers.readResource('everything', 'demo://no/such/thing')).rejects.toThrow(
      /"everything" did not give the resource demo:\/\/no\/such\/thing/,
    );
  });

  it('reads a link for Save… after its server died: says when it restarts, then reads from the new process', async () => {
    servers = await startEverything();
    const transport = servers.sdkClient('everything')?.transport as { pid?: number | null } | undefined;
    const pid = transport?.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await waitFor(async () => servers?.states()[0]?.status === 'failed');
    await expect(servers.readResource('everything', 'demo://resource/dynamic/text/3')).rejects.toThrow(
      /It is restarted in 1 s; call again then/,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const text = await servers.readResource('everything', 'demo://resource/dynamic/text/3');
    expect(Buffer.from(text.data, 'base64').toString()).toMatch(/^Resource 3: This is a plaintext resource/);
    const restarted = servers.sdkClient('everything')?.transport as { pid?: number | null } | undefined;
    expect(restarted?.pid).not.toBe(pid);
    expect(servers.states()[0]?.status).toBe('ready');
  });

  it('keeps the blob server-everything returns from get-resource-reference, read back byte for byte', async () => {
    servers = await startEverything();
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({
      workspace,
      sessionDir,
      sink,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no')),
    });
    registry.register(...servers.tools());
    const outcome = await registry.call({
      callId: 'c1',
      name: 'mcp__everything__get-resource-reference',
      args: { resourceType: 'Blob', resourceId: 2 },
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toMatch(/\[resource demo:\/\/resource\/dynamic\/blob\/2 \(text\/plain\), \d+ bytes\]/);
    const completed = sink.events.find((event) => event.type === 'tool_completed');
    const echo = mcpEchoSchema.parse(completed?.type === 'tool_completed' ? completed.result : null);
    const [blob] = echo.resources ?? [];
    expect(blob).toMatchObject({
      type: 'blob',
      uri: 'demo://resource/dynamic/blob/2',
      name: '2',
      mime_type: 'text/plain',
    });
    const saved = await readKeptBlob(sessionDir, blob?.sha256 ?? '');
    expect(Buffer.from(saved.data, 'base64').toString()).toMatch(/^Resource 2: This is a base64 blob created at /);
  });
});
