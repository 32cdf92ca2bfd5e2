import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolProgress } from '../../../protocol/tools.ts';
import { ManualClock } from '../../../test/manual-clock.ts';
import { FIXTURE } from '../../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { PROGRESS_INTERVAL_MS } from '../progress-reporter.ts';
import { ToolRegistry } from '../registry.ts';
import { McpProgressLines } from './mcp-progress.ts';
import { McpServers } from './mcp-servers.ts';
import { mcpTool, type McpCaller } from './mcp-tool.ts';

// An MCP call's live progress: the newest lines and how many came before them, with a running size,
// reported at most once per interval however fast the server sends notes.

let root: string;
let workspace: string;
let sessionDir: string;
let servers: McpServers | null = null;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-mcp-progress-'));
});

afterEach(async () => {
  await servers?.close();
  servers = null;
  await rm(root, { recursive: true, force: true });
});

/** Lines `from`…`to` as the card shows a server's `step N` notes. */
function steps(from: number, to: number, total: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, index) => `${from + index}/${total} step ${from + index}`);
}

function registryOf(...tools: Parameters<ToolRegistry['register']>) {
  const sink = new StatusRecorder();
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, readableRoots: [sessionDir] });
  registry.register(...tools);
  return { registry, sink };
}

describe('MCP progress', () => {
  it('shows the newest lines and the count of earlier ones, and reports at most once per interval', () => {
    const clock = new ManualClock();
    const reports: ToolProgress[] = [];
    const lines = new McpProgressLines((report) => reports.push(report), clock);
    lines.add({ progress: 1, total: 9, message: 'step 1' });
    expect(reports).toEqual([{ text: '1/9 step 1', cut_bytes: 0, total_bytes: 10 }]);
    for (let step = 2; step <= 9; step += 1) lines.add({ progress: step, total: 9, message: `step ${step}` });
    expect(reports).toHaveLength(1);
    clock.advance(PROGRESS_INTERVAL_MS);
    expect(reports).toHaveLength(2);
    const kept = steps(4, 9, 9).join('\n');
    const all = steps(1, 9, 9).join('\n');
    expect(reports[1]).toEqual({
      text: `… 3 earlier lines\n${kept}`,
      cut_bytes: Buffer.byteLength(all) - Buffer.byteLength(kept),
      total_bytes: Buffer.byteLength(all),
    });
    lines.add({ progress: 10 });
    lines.end();
    expect(reports.at(-1)?.text).toMatch(/^… 4 earlier lines\n5\/9 step 5\n[^]*\n10$/);
    lines.add({ progress: 11 });
    expect(reports).toHaveLength(3);
  });

  it('keeps six lines of 20 000 notes sent at once and reports them twice, not once a note', async () => {
    const flood: McpCaller = {
      async call(_tool, _args, { onprogress }) {
        for (let step = 1; step <= 20_000; step += 1)
          onprogress({ progress: step, total: 20_000, message: `step ${step}` });
        return { content: [{ type: 'text', text: 'done' }] };
      },
    };
    const { registry, sink } = registryOf(mcpTool('flood', { name: 'counts', inputSchema: { type: 'object' } }, flood));
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__flood__counts', args: {} });
    expect(outcome.content).toBe('done');
    const reports = sink.ofType('tool_progress').map((event) => event.progress);
    // The first note at once; the other 19 999 fold into the one report made when the call ends.
    expect(reports).toHaveLength(2);
    const kept = steps(19_995, 20_000, 20_000).join('\n');
    expect(reports[1]?.text).toBe(`… 19994 earlier lines\n${kept}`);
    expect(reports[1]?.total_bytes).toBe(Buffer.byteLength(steps(1, 20_000, 20_000).join('\n')));
  });

  it('reports a stdio server that floods progress in few reports, ending on its newest lines', async () => {
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(
      path.join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
    );
    servers = new McpServers({ home, workspace });
    await servers.start();
    const { registry, sink } = registryOf(...servers.tools());
    const outcome = await registry.call({
      callId: 'c1',
      name: 'mcp__fixture__floods-progress',
      args: { count: 5_000 },
    });
    expect(outcome.content).toBe('sent 5000');
    const reports = sink.ofType('tool_progress').map((event) => event.progress);
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.length).toBeLessThan(200);
    // Notes read in the same chunk as the answer may be dropped by the MCP client: the last report
    // ends at the newest note the call heard.
    const last = reports.at(-1)!;
    const newest = Number(/(\d+)\/5000 step \d+$/.exec(last.text)?.[1]);
    expect(newest).toBeGreaterThan(100);
    const kept = steps(newest - 5, newest, 5_000).join('\n');
    expect(last).toEqual({
      text: `… ${newest - 6} earlier lines\n${kept}`,
      cut_bytes: Buffer.byteLength(steps(1, newest - 6, 5_000).join('\n')) + 1,
      total_bytes: Buffer.byteLength(steps(1, newest, 5_000).join('\n')),
    });
  });
});
