import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { createRunCodeTool } from '../main/tools/code-mode/run-code.ts';
import { runProgram } from '../main/tools/code-mode/run-code-host.ts';
import { DEFAULT_RUN_CODE_LIMITS } from '../main/tools/code-mode/run-code-protocol.ts';
import { coolSandbox, sandboxReady } from '../main/tools/code-mode/warm-sandbox.ts';
import { defineTool } from '../main/tools/tool.ts';
import { compare, fmt, time, type Timing } from './measure.ts';
import { sandboxAlone } from './run-code-bridge.ts';

// run_code: cold start (worker thread + QuickJS + program) and the cost of 1 000 nested calls,
// each against baselines measured in the same run: a direct registry call of a trivial tool,
// spawning an empty worker thread, bare round trips with a running one (as messages both ways,
// and with the replies in shared memory as run_code's go: the floors of any worker-based
// sandbox), the same program with each call answered at once without the registry (hand-offs and
// sandbox as they are in a real program), and the program in a new worker (how every program ran
// before).

const NESTED = 1000;

const noop = defineTool({
  name: 'noop',
  model: {
    description: 'Returns its input.',
    schema: z.object({ n: z.number() }),
    render: (result: { n: number }) => String(result.n),
  },
  gate: { kind: 'read' },
  async execute(args) {
    return { n: args.n };
  },
});

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-run-code-'));
  const workspace = path.join(root, 'ws');
  const sessionDir = path.join(root, 'session');
  await Promise.all([mkdir(workspace), mkdir(sessionDir)]);
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask'));
  const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate });
  registry.register(noop, createRunCodeTool({ tools: () => registry.list(), limits: { maxCalls: NESTED } }));
  let id = 0;
  const call = async (name: string, args: unknown): Promise<string> => {
    id += 1;
    const outcome = await registry.call({ callId: `bench-${id}`, name, args });
    if (outcome.isError) throw new Error(`bench call failed: ${outcome.content}`);
    return outcome.content;
  };

  try {
    if ((await call('run_code', { code: 'return 1 + 1;' })) !== '2') throw new Error('run_code gave a wrong answer');

    console.log('run_code (QuickJS in a worker thread)');
    // With a warm runtime ready (QuickJS loaded in a waiting worker), and without one: the ready
    // worker is ended before each run, so the program starts its own thread and QuickJS.
    const warm = await timeEach(9, sandboxReady, () => call('run_code', { code: 'return 1;' }));
    // Right after another program ended: its worker is still making the next interpreter.
    const afterAnother = async (): Promise<void> => {
      await sandboxReady();
      await call('run_code', { code: 'return 0;' });
    };
    const backToBack = await timeEach(9, afterAnother, () => call('run_code', { code: 'return 1;' }));
    const cold = await timeEach(9, coolSandbox, () => call('run_code', { code: 'return 1;' }));
    const direct = await time(9, () => call('noop', { n: 1 }));
    const emptyWorker = await time(9, spawnEmptyWorker);
    console.log(`  ${compare('start, `return 1`, a warm runtime ready', warm, cold, 'none ready (before)')}`);
    console.log(`  ${compare('start right after another program', backToBack, cold, 'none ready (before)')}`);
    console.log(`  ${compare('cold start, `return 1`', cold, direct, 'direct registry call')}`);
    console.log(`  ${compare('cold start, `return 1`', cold, emptyWorker, 'empty worker thread')}`);
    console.log(`  ${compare('start with a warm runtime ready', warm, emptyWorker, 'empty worker thread')}`);
    await sandboxReady();

    const program = `let sum = 0; for (let i = 0; i < ${NESTED}; i++) sum += (await tools.noop({ n: i })).n; return sum;`;
    const expected = String((NESTED * (NESTED - 1)) / 2);
    const runNested = async (): Promise<void> => {
      if ((await call('run_code', { code: program })) !== expected) throw new Error('the nested loop gave a wrong sum');
    };
    // The same program with each call answered at once by the host, no registry: the thread
    // hand-offs and the sandbox's work as they are in a real program, without the tool's side.
    const answeredAtOnce = async (): Promise<void> => {
      const outcome = await runProgram(program, {
        toolNames: ['noop'],
        limits: { ...DEFAULT_RUN_CODE_LIMITS, maxCalls: NESTED },
        signal: new AbortController().signal,
        dispatch: (_name, args) => Promise.resolve({ callId: 'bench', content: '', isError: false, result: args }),
      });
      if (outcome.output !== expected) throw new Error('the program answered at once gave a wrong sum');
    };
    const loopDirect = async (): Promise<void> => {
      for (let n = 0; n < NESTED; n += 1) await call('noop', { n });
    };
    // Before: every program ran in a new worker, whose compiled code starts cold; now a worker whose
    // program ended well takes the next one (each still in an interpreter of its own). The variants
    // take turns in each round, so a change in the machine's load falls on all of them alike.
    const rounds: Record<
      'fresh' | 'nested' | 'logged' | 'atOnce' | 'floor' | 'sharedFloor' | 'loop' | 'sandbox',
      number[]
    > = {
      fresh: [],
      atOnce: [],
      nested: [],
      logged: [],
      floor: [],
      sharedFloor: [],
      loop: [],
      sandbox: [],
    };
    for (let round = 0; round < 5; round += 1) {
      await coolSandbox();
      rounds.fresh.push(await clock(runNested));
      rounds.nested.push(await clock(runNested));
      rounds.logged.push(await nestedWithLog(root, program, expected));
      rounds.atOnce.push(await clock(answeredAtOnce));
      rounds.floor.push(await workerRoundTrips(NESTED, false));
      rounds.sharedFloor.push(await workerRoundTrips(NESTED, true));
      rounds.loop.push(await clock(loopDirect));
    }
    // The sandbox alone runs in this thread after the rounds: its interpreters' memory, left to this
    // thread's collector, would otherwise slow the host side of the rounds after it.
    for (let round = 0; round < 5; round += 1) rounds.sandbox.push(await sandboxAlone(program, NESTED, expected));
    const [fresh, nested, logged, atOnce, floor, sharedFloor, loop, sandbox] = (
      ['fresh', 'nested', 'logged', 'atOnce', 'floor', 'sharedFloor', 'loop', 'sandbox'] as const
    ).map((name) => medianOf(rounds[name])) as [Timing, Timing, Timing, Timing, Timing, Timing, Timing, Timing];
    console.log(`  ${compare(`${NESTED} nested calls, one program`, nested, fresh, 'in a new worker (before)')}`);
    console.log(`  ${compare(`${NESTED} nested calls, one program`, nested, loop, `${NESTED} direct calls`)}`);
    console.log(
      `  ${compare(`${NESTED} nested calls, one program`, nested, floor, `${NESTED} bare worker round trips`)}`,
    );
    console.log(
      `  ${compare(`${NESTED} nested calls, one program`, nested, sharedFloor, `${NESTED} round trips, replies in shared memory`)}`,
    );
    console.log(
      `  ${compare(`${NESTED} nested calls, one program`, nested, sandbox, 'the sandbox alone, in this thread')}`,
    );
    console.log(
      `  ${compare(`${NESTED} nested calls, one program`, nested, atOnce, 'each answered at once, no registry')}`,
    );
    console.log(
      `  ${compare('each answered at once, no registry', atOnce, { medianMs: sharedFloor.medianMs + sandbox.medianMs, runs: sandbox.runs }, 'shared round trips + sandbox')}`,
    );
    // The parts a nested call cannot do without, each measured alone in this run, added up.
    const parts = { medianMs: sharedFloor.medianMs + sandbox.medianMs + loop.medianMs, runs: floor.runs };
    console.log(
      `  ${compare(`${NESTED} nested calls, one program`, nested, parts, 'shared round trips + sandbox + direct calls')}`,
    );
    console.log(`  ${compare(`${NESTED} nested calls, with the session log`, logged, nested, 'without the log')}`);
    const perNested = (nested.medianMs - warm.medianMs) / NESTED;
    const perDirect = loop.medianMs / NESTED;
    console.log(
      `  ${'per nested call, start taken out'.padEnd(44)} ${fmt(perNested).padStart(10)}   per direct call: ${fmt(perDirect).padStart(10)}   ratio ${(perNested / perDirect).toPrecision(3)}×`,
    );
  } finally {
    await coolSandbox();
    await rm(root, { recursive: true, force: true });
  }
}

async function clock(body: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

function medianOf(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: sorted.length };
}

/** Median wall time of `body`, each run after `before` (not timed). */
async function timeEach(runs: number, before: () => Promise<void>, body: () => Promise<unknown>): Promise<Timing> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    await before();
    const start = performance.now();
    await body();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)] ?? 0, runs };
}

/**
 * The same program through a registry whose sink and store are the real fsynced session log: the
 * milliseconds of the call (its start record, 1 000 nested calls' records, its result, two fsyncs),
 * not of creating and closing the session.
 */
async function nestedWithLog(root: string, program: string, expected: string): Promise<number> {
  const log = await SessionLog.create({ root: path.join(root, 'sessions'), workspace: root, model: 'bench' });
  try {
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask'));
    const sink = new SessionSink(log, new StatusRecorder());
    const registry = new ToolRegistry({
      workspace: root,
      sessionDir: log.dir,
      sink,
      store: log,
      gate,
      hooks: defaultCallHooks(),
    });
    registry.register(noop, createRunCodeTool({ tools: () => registry.list(), limits: { maxCalls: NESTED } }));
    const start = performance.now();
    const outcome = await registry.call({ callId: 'logged', name: 'run_code', args: { code: program } });
    const ms = performance.now() - start;
    if (outcome.content !== expected) throw new Error(`the logged nested loop gave ${outcome.content}`);
    return ms;
  } finally {
    await log.close();
  }
}

/**
 * The floor of any thread-based sandbox: milliseconds of `count` sequential round trips with an idle
 * worker that is already running (its start is not timed). `shared`: the reply goes as run_code's
 * do, written to shared memory while the worker blocks in Atomics.wait; otherwise as a message.
 */
async function workerRoundTrips(count: number, shared: boolean): Promise<number> {
  const buffer = new SharedArrayBuffer(8);
  const bell = new Int32Array(buffer);
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const bell = new Int32Array(workerData.buffer);
     const call = (id) => ({ type: "call", call: { id, name: "noop", argsJson: '{"n":1}' } });
     if (workerData.shared) {
       parentPort.once("message", (m) => {
         for (let id = m.id; id > 0; id -= 1) {
           const rung = Atomics.load(bell, 0);
           parentPort.postMessage(call(id));
           Atomics.wait(bell, 0, rung);
         }
         parentPort.postMessage({ type: "done" });
       });
     } else parentPort.on("message", (m) => parentPort.postMessage(m.id > 0 ? call(m.id) : { type: "done" }));`,
    { eval: true, workerData: { buffer, shared } },
  );
  await new Promise((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { type: string; call?: { id: number } }) => {
      if (message.type === 'done') return resolve();
      const id = (message.call?.id ?? 1) - 1;
      if (!shared) return worker.postMessage({ type: 'reply', id, ok: true, json: '{"n":1}' });
      Atomics.add(bell, 0, 1);
      Atomics.notify(bell, 0);
    });
    worker.once('error', reject);
    worker.postMessage({ type: 'reply', id: count, ok: true, json: '{"n":1}' });
  });
  const ms = performance.now() - start;
  await worker.terminate();
  return ms;
}

async function spawnEmptyWorker(): Promise<void> {
  const worker = new Worker('require("node:worker_threads").parentPort.postMessage(1)', { eval: true });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
