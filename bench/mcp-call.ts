import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServers } from '../main/tools/mcp/mcp-servers.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { compare, type Timing } from './measure.ts';

// What the pipeline adds to an MCP call: get-sum of server-everything over stdio called through the
// registry (schema check, gate, progress wiring, render, spill check, store, events) against the
// SDK's bare callTool on a second copy of the same server, interleaved so both see the same load.

const CALLS = 300;
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-mcp-'));
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  await mkdir(workspace);
  await mkdir(home);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  const servers = new McpServers({ home, workspace });
  const bare = new Client({ name: 'bench', version: '1' });
  try {
    await servers.start();
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
    const registry = new ToolRegistry({ workspace, sessionDir: root, sink: new StatusRecorder(), gate });
    registry.register(...servers.tools());
    await bare.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
    let id = 0;
    const [piped, direct] = await interleaved(
      CALLS,
      () => registry.call({ callId: `b${(id += 1)}`, name: 'mcp__everything__get-sum', args: { a: 1, b: 2 } }),
      () => bare.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }),
    );
    console.log('MCP tool call (stdio, get-sum of server-everything)');
    console.log(compare('  through the registry pipeline', piped, direct, 'bare SDK callTool'));
  } finally {
    await bare.close().catch(() => undefined);
    await servers.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function interleaved(
  runs: number,
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<[Timing, Timing]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    let start = performance.now();
    await ours();
    a.push(performance.now() - start);
    start = performance.now();
    await baseline();
    b.push(performance.now() - start);
  }
  const median = (samples: number[]) => samples.sort((x, y) => x - y)[Math.floor(samples.length / 2)] ?? 0;
  return [
    { medianMs: median(a), runs },
    { medianMs: median(b), runs },
  ];
}

if (import.meta.main) await run();
