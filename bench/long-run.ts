import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFixtureStep, startFixtureServer } from '../main/model/fixture-server.ts';
import type { FixtureStep } from '../main/model/fixture-script.ts';
import { longRunCall, writeLongRunWorkspace, type LongRunShape } from './long-run-calls.ts';
import { mib } from './measure.ts';

// A long `aether run`: N steps of M parallel small read_file and search_files calls, the fixture
// model asking for them, the real command in a process of its own. Its step times (between the
// model requests), total time and peak RSS are printed beside a baseline measured in the same run:
// the same calls made directly through the registry with the session log, in a process of its own
// too (long-run-baseline.ts). Whether a long run slows down or grows shows in the first 10 steps
// against the last 10, and in the peak RSS against the baseline's.
//
// The command runs what an installed `aether` runs: the bundle while `npm run build:main`'s output is
// current, else the TypeScript sources (each module stripped as it loads); the bench says which.
//
// Each process's CPU time is printed too, and the fixture model server's (it runs in the bench's own
// process): on a loaded machine CPU time moves far less than wall time.
//
// By default two runs, each against its targets: 4 000 reads (40 steps of 100; peak RSS ≤ 300 MB)
// and 10 000 calls, one in ten a search (40 steps of 250; total ≤ 1.5× the baseline's, the last 10
// steps within 20 % of the first 10, peak RSS ≤ 400 MB). `node bench/run.ts long-run 1000` (or
// LONG_RUN_CALLS=1000) runs one shape of that many calls, in steps of 100, wider past 40 steps (a
// turn stops at 50), one in LONG_RUN_SEARCH_EVERY (default 10; 0 for reads only) a search.
// LONG_RUN_PROFILE=DIR writes a CPU profile of the
// `aether run` process into DIR (open it in Chrome's DevTools, Performance); LONG_RUN_NODE_FLAGS
// adds Node flags to that process (`--heap-prof --heap-prof-dir=DIR`, `--heapsnapshot-signal=SIGUSR2`).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Each process prints its peak RSS and its own CPU time at exit (a loaded machine inflates CPU time
// far less than wall time).
const EXIT_HOOKS = [
  '-r',
  path.join(ROOT, 'bench', 'max-rss-at-exit.cjs'),
  '-r',
  path.join(ROOT, 'bench', 'cpu-at-exit.cjs'),
];
const PARALLEL = 100;
/** A turn stops after 50 model steps: a longer run makes its steps wider instead (10 000 calls: 40 of 250). */
const MOST_STEPS = 40;

interface Ran {
  wallMs: number;
  maxRss: number;
  cpuMs: number;
  stdout: string;
  /** What `aether` said it ran (NODE_DEBUG=aether): the bundle or the sources, and why. */
  code?: string;
}

function runNode(args: string[], env: Record<string, string> = {}, flags: string[] = []): Promise<Ran> {
  const start = performance.now();
  const child = spawn(process.execPath, [...flags, ...EXIT_HOOKS, ...args], {
    cwd: ROOT,
    env: { ...process.env, AETHERCODEX_SESSIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-100_000)));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const rss = /max-rss-at-exit (\d+)/.exec(stderr);
      const cpu = /cpu-at-exit ([\d.]+)/.exec(stderr);
      if (code !== 0 || !rss || !cpu)
        reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)} ${stdout.slice(-3000)}`));
      else {
        const code = /AETHER \d+: (running the .*)/.exec(stderr)?.[1];
        resolve({ wallMs: performance.now() - start, maxRss: Number(rss[1]), cpuMs: Number(cpu[1]), stdout, code });
      }
    });
  });
}

/** The calls asked for on the command line or in LONG_RUN_CALLS, if any. */
function callsAsked(): number | undefined {
  const at = process.argv.indexOf('long-run');
  const fromArgs = at === -1 ? undefined : process.argv[at + 1];
  const given = fromArgs ?? process.env.LONG_RUN_CALLS;
  if (given === undefined) return undefined;
  const asked = Number(given);
  if (!Number.isInteger(asked) || asked < PARALLEL)
    throw new Error(`long-run: the number of calls must be a whole number of at least ${PARALLEL}, not ${given}.`);
  return asked;
}

/** One call in how many is a search (LONG_RUN_SEARCH_EVERY, default 10); 0 for reads only. */
function searchesAsked(): number {
  const asked = Number(process.env.LONG_RUN_SEARCH_EVERY ?? 10);
  return Number.isInteger(asked) && asked >= 0 ? asked : 10;
}

interface Targets {
  /** Total time against the baseline's. */
  ratio?: number;
  /** The last 10 steps' mean against the first 10's. */
  flat?: number;
  /** Peak RSS, in MB (10^6 bytes). */
  peakMB: number;
}

/** The runs `npm run bench` makes, with what each must meet. */
const DEFAULT_RUNS: { calls: number; searchEvery: number; targets: Targets }[] = [
  { calls: 4000, searchEvery: 0, targets: { peakMB: 300 } },
  { calls: 10_000, searchEvery: 10, targets: { ratio: 1.5, flat: 1.2, peakMB: 400 } },
];

/** The session's run: `aether run` against the fixture model; step times from its requests' arrivals. */
async function sessionRun(
  workspace: string,
  sessions: string,
  shape: LongRunShape,
): Promise<Ran & { steps: number[]; fixtureCpuMs: number }> {
  const arrivals: number[] = [];
  const server = await startFixtureServer({
    respond: (): FixtureStep | undefined => {
      arrivals.push(performance.now());
      server.requests.length = 0; // the bench keeps no request bodies
      const step = arrivals.length - 1;
      if (step >= shape.steps) return parseFixtureStep({ text: ['Done.'] });
      const calls = Array.from({ length: shape.parallel }, (_, index) => longRunCall(shape, step, index));
      return parseFixtureStep({
        tool_calls: calls.map((call) => ({ id: call.id, name: call.name, args: call.args, chunk_size: 4096 })),
        stop_reason: 'tool_use',
      });
    },
  });
  // The fixture server runs in this process: its CPU time is what this process spends meanwhile.
  const cpuBefore = process.cpuUsage();
  try {
    const model = `compat:${server.baseURL}#fixture`;
    const ran = await runNode(
      [
        path.join(ROOT, 'bin', 'aether.js'),
        'run',
        '--workspace',
        workspace,
        '--sessions',
        sessions,
        '--model',
        model,
        'Read the modules.',
      ],
      // What the command runs is what is measured: the bundle while it is current, else the sources.
      { NODE_DEBUG: 'aether' },
      [
        ...(process.env.LONG_RUN_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LONG_RUN_PROFILE}`] : []),
        ...(process.env.LONG_RUN_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      ],
    );
    const steps = arrivals.slice(1, shape.steps + 1).map((at, index) => at - arrivals[index]!);
    if (steps.length !== shape.steps)
      throw new Error(`aether run made ${arrivals.length} model requests: ${ran.stdout.slice(-2000)}`);
    const fixtureCpu = process.cpuUsage(cpuBefore);
    return { ...ran, steps, fixtureCpuMs: (fixtureCpu.user + fixtureCpu.system) / 1000 };
  } finally {
    await server.close();
  }
}

async function baselineRun(
  workspace: string,
  sessions: string,
  shape: LongRunShape,
): Promise<Ran & { steps: number[] }> {
  const ran = await runNode([
    path.join(ROOT, 'bench', 'long-run-baseline.ts'),
    workspace,
    sessions,
    JSON.stringify(shape),
  ]);
  const { steps } = JSON.parse(ran.stdout.trim().split('\n').pop()!) as { steps: number[] };
  return { ...ran, steps };
}

function meanMs(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
}

function describeRun(label: string, ran: Ran & { steps: number[] }): string {
  const first = meanMs(ran.steps.slice(0, 10));
  const last = meanMs(ran.steps.slice(-10));
  return (
    `${label.padEnd(40)} total ${(ran.wallMs / 1000).toFixed(2)} s   per step: first 10 ${first.toFixed(1)} ms, ` +
    `last 10 ${last.toFixed(1)} ms (${(last / first).toFixed(2)}×)   CPU ${(ran.cpuMs / 1000).toFixed(2)} s   ` +
    `peak RSS ${mib(ran.maxRss)}`
  );
}

export async function run(): Promise<void> {
  const asked = callsAsked();
  const runs =
    asked === undefined ? DEFAULT_RUNS : [{ calls: asked, searchEvery: searchesAsked(), targets: undefined }];
  for (const [index, { calls, searchEvery, targets }] of runs.entries()) {
    if (index > 0) console.log('');
    await longRun(calls, searchEvery, targets);
  }
}

/** A line saying how the run did against each target. */
function describeTargets(targets: Targets, session: Ran & { steps: number[] }, baseline: Ran): string {
  const said: string[] = [];
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  if (targets.ratio !== undefined) {
    const ratio = session.wallMs / baseline.wallMs;
    said.push(`total ${ratio.toFixed(2)}× ≤ ${targets.ratio}× ${met(ratio <= targets.ratio)}`);
  }
  if (targets.flat !== undefined) {
    const flat = meanMs(session.steps.slice(-10)) / meanMs(session.steps.slice(0, 10));
    said.push(`last 10 steps ${flat.toFixed(2)}× the first 10 ≤ ${targets.flat}× ${met(flat <= targets.flat)}`);
  }
  const peakMB = session.maxRss / 1e6;
  said.push(`peak ${peakMB.toFixed(0)} MB ≤ ${targets.peakMB} MB ${met(peakMB <= targets.peakMB)}`);
  return `  targets: ${said.join('; ')}`;
}

async function longRun(calls: number, searchEvery: number, targets: Targets | undefined): Promise<void> {
  const parallel = Math.max(PARALLEL, Math.ceil(calls / MOST_STEPS));
  const shape: LongRunShape = {
    steps: Math.ceil(calls / parallel),
    parallel,
    files: 400,
    fileBytes: 4000,
    searchEvery,
  };
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-bench-long-run-')));
  const sessions = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-long-run-sessions-'));
  try {
    await writeLongRunWorkspace(workspace, shape);
    console.log(
      `a long run: ${shape.steps} steps of ${shape.parallel} parallel calls (${shape.steps * shape.parallel} calls, ` +
        (shape.searchEvery > 0 ? `1 in ${shape.searchEvery} a search_files over ${shape.files} files, ` : '') +
        `read_file of files of ~${shape.fileBytes} bytes)`,
    );
    const session = await sessionRun(workspace, sessions, shape);
    const baseline = await baselineRun(workspace, sessions, shape);
    console.log(`  ${describeRun('aether run, fixture model', session)}`);
    console.log(
      `    (${session.code ?? 'which code ran was not said'}; \`npm run build:main\` makes the bundle current)`,
    );
    console.log(`  ${describeRun('baseline: registry + session log', baseline)}`);
    console.log(
      `  the fixture model server (parsing each request, streaming its calls), in the bench's process: ` +
        `CPU ${(session.fixtureCpuMs / 1000).toFixed(2)} s`,
    );
    console.log(
      `  ratios: total ${(session.wallMs / baseline.wallMs).toFixed(2)}×, CPU ${(session.cpuMs / baseline.cpuMs).toFixed(2)}×, ` +
        `last 10 steps ${(meanMs(session.steps.slice(-10)) / meanMs(baseline.steps.slice(-10))).toFixed(2)}×, ` +
        `peak RSS ${(session.maxRss / baseline.maxRss).toFixed(2)}×`,
    );
    if (targets) console.log(describeTargets(targets, session, baseline));
  } finally {
    await rm(workspace, { recursive: true, force: true });
    await rm(sessions, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
