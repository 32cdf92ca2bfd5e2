import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { McpServers } from '../main/tools/mcp/mcp-servers.ts';
import { mcpTool } from '../main/tools/mcp/mcp-tool.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { compare, fmt, type Timing } from './measure.ts';

// What the pipeline adds to an MCP call: get-sum of server-everything over stdio called through the
// registry (schema check, gate, progress wiring, render, spill check, store, events), with a turn's
// stop signal and id as the agent passes them, against the SDK's bare callTool on the same server process (the
// pipeline connection's own SDK client: two copies of a server answer up to ±50 µs apart, either way,
// which would drown what is measured). Both warm up first, then alternate which goes first in each
// pair, so both see the same load; each timed call starts after a pause of 1 ms, as a call from a
// model does (the server and the caches idle, not hot from the call before); medians of many calls.
//
// Two figures, the warm one first. V8 optimizes a function after about 400 calls of it (Maglev; TurboFan
// after 3 000). The SDK's code runs in both halves of a pair, the pipeline's in one, so during a fresh
// process's first few hundred MCP calls the pipeline's code still runs in the baseline tier while the
// SDK's is optimized: that figure is measured first, in calls 50 to 550 of the process. The warm figure
// is the same pairs after 2 000 more calls of each, once both are optimized, as in a panel that has
// worked a while (the registry's code is shared by every tool's calls, not only MCP's).
//
// Then the pipeline alone, with the server's answer canned (back to back, hot), and the same calls
// with the fsynced session log as sink and store, fresh (the log's code in its first few hundred
// calls: the sink, the writer, each record's serialising) and warm (after the 2 000 more calls). A last pair shows what the SDK itself spends on
// the options every pipeline call passes (a signal for cancel, onprogress for live progress, the
// timeouts): the part of the ratio no pipeline code can win back.

const PAIRS = 500;
const LOGGED_PAIRS = 150;
const OPTION_PAIRS = 300;
const WARM_UP = 50;
/** Calls of each between the fresh pairs and the warm ones. */
const LONG_WARM_UP = 2_000;
const CANNED_CALLS = 5_000;
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
  const log = await SessionLog.create({ root: path.join(root, 'sessions'), workspace, model: 'bench' });
  try {
    await servers.start();
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
    const hooks = defaultCallHooks();
    const registry = new ToolRegistry({ workspace, sessionDir: root, sink: new StatusRecorder(), gate, hooks });
    registry.register(...servers.tools());
    const logged = new ToolRegistry({
      workspace,
      sessionDir: log.dir,
      sink: new SessionSink(log, new StatusRecorder()),
      store: log,
      gate,
      hooks,
    });
    logged.register(...servers.tools());
    const bare = servers.sdkClient('everything');
    if (!bare) throw new Error(`server-everything did not start: ${servers.states()[0]?.failure ?? 'no state'}`);
    const turn = new AbortController();
    let id = 0;
    const through = (target: ToolRegistry) => async () => {
      const outcome = await target.call({
        callId: `b${(id += 1)}`,
        name: 'mcp__everything__get-sum',
        args: { a: 1, b: 2 },
        signal: turn.signal,
        turnId: 'bench',
      });
      if (outcome.isError) throw new Error(outcome.content);
    };
    const direct = () => bare.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
    const [piped, baseline, perPair] = await pairs(PAIRS, through(registry), direct);
    const [withLog, logBaseline] = await pairs(LOGGED_PAIRS, through(logged), direct);
    const optioned = () =>
      bare.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }, undefined, {
        signal: new AbortController().signal,
        onprogress: () => undefined,
        timeout: 60_000,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: 30 * 60_000,
      });
    const [withOptions, optionsBaseline] = await pairs(OPTION_PAIRS, optioned, direct);
    for (let index = 0; index < LONG_WARM_UP; index += 1) {
      await through(registry)();
      await through(logged)();
      await direct();
    }
    const [pipedLater, baselineLater, perPairLater] = await pairs(PAIRS, through(registry), direct);
    const [withLogLater, logBaselineLater] = await pairs(LOGGED_PAIRS, through(logged), direct);
    const tool = servers.listedTools('everything').find((listed) => listed.name === 'get-sum');
    if (!tool) throw new Error('server-everything lists no get-sum');
    const canned = await pipelineAlone(tool, root, gate);
    const link = stopSignalLink();

    console.log('MCP tool call (stdio, get-sum of server-everything)');
    console.log(compare('  through the registry pipeline, warm', pipedLater, baselineLater, 'bare SDK callTool'));
    console.log(`    per pair, pipeline minus bare: median ${fmt(perPairLater.medianMs)}`);
    console.log(compare('  the same in a fresh process (calls 50–550)', piped, baseline, 'bare SDK callTool'));
    console.log(`    per pair, pipeline minus bare: median ${fmt(perPair.medianMs)}`);
    console.log(
      compare('  bare callTool given the pipeline’s options', withOptions, optionsBaseline, 'bare SDK callTool'),
    );
    console.log(
      compare(
        '  the same, the session log as sink and store, warm',
        withLogLater,
        logBaselineLater,
        'bare SDK callTool',
      ),
    );
    console.log(
      compare('  the same with the log, fresh (its calls 50–200)', withLog, logBaseline, 'bare SDK callTool'),
    );
    console.log('  (target: a read-only call with the session log ≤ 2× the bare call, warm)');
    console.log(`  the pipeline alone (the server's answer canned): ${fmt(canned.medianMs)} a call`);
    console.log(
      compare('  a call following the turn’s stop signal', link.listener, link.any, 'AbortSignal.any per call'),
    );
  } finally {
    await servers.close();
    await log.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** `runs` pairs after a warm-up, the first of each pair alternating; medians, and the median of the differences. */
async function pairs(
  runs: number,
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<[Timing, Timing, Timing]> {
  for (let index = 0; index < WARM_UP; index += 1) {
    await ours();
    await baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  const timed = async (body: () => Promise<unknown>, into: number[]) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const start = performance.now();
    await body();
    into.push(performance.now() - start);
  };
  for (let index = 0; index < runs; index += 1) {
    if (index % 2 === 0) {
      await timed(ours, a);
      await timed(baseline, b);
    } else {
      await timed(baseline, b);
      await timed(ours, a);
    }
  }
  const differences = a.map((value, index) => value - (b[index] ?? 0));
  return [median(a), median(b), median(differences)];
}

/** The registry's own cost: the same tool definition, its server's answer returned at once. */
async function pipelineAlone(tool: Tool, root: string, gate: PermissionGate): Promise<Timing> {
  const answer: CallToolResult = { content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] };
  const registry = new ToolRegistry({
    workspace: root,
    sessionDir: root,
    sink: new StatusRecorder(),
    gate,
    hooks: defaultCallHooks(),
  });
  registry.register(mcpTool('everything', tool, { call: async () => answer }));
  const turn = new AbortController();
  const samples: number[] = [];
  for (let index = 0; index < CANNED_CALLS; index += 1) {
    const start = performance.now();
    await registry.call({
      callId: `c${index}`,
      name: 'mcp__everything__get-sum',
      args: { a: 1, b: 2 },
      signal: turn.signal,
      turnId: 'bench',
    });
    samples.push(performance.now() - start);
  }
  return median(samples.slice(CANNED_CALLS / 10));
}

/** What linking a call's own controller to the turn's signal costs: a listener per call (the registry's) against `AbortSignal.any`. */
function stopSignalLink(): { listener: Timing; any: Timing } {
  const turn = new AbortController();
  const runs = 20_000;
  const each = (body: () => void): Timing => {
    const start = performance.now();
    for (let index = 0; index < runs; index += 1) body();
    return { medianMs: (performance.now() - start) / runs, runs };
  };
  const any = () => void AbortSignal.any([turn.signal, new AbortController().signal]);
  const listen = () => {
    const own = new AbortController();
    const stop = () => own.abort(turn.signal.reason);
    turn.signal.addEventListener('abort', stop);
    turn.signal.removeEventListener('abort', stop);
  };
  each(any);
  each(listen);
  return { any: each(any), listener: each(listen) };
}

function median(samples: number[]): Timing {
  const sorted = [...samples].sort((x, y) => x - y);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: samples.length };
}

if (import.meta.main) await run();
