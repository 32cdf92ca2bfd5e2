import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from '../build/cli-bundle.ts';
import { fmt } from './measure.ts';

// `aether tool read_file` as a process, from start to exit, against `node -e 0` on the same Node.
// Today: bin/aether.js running the command line bundle (out/cli, which this bench builds first, as
// `npm run build:main` does). Measured in the same run: the same bin on the TypeScript sources
// (AETHER_CLI_SOURCES=1, what runs while the bundle is not current), and every command's module
// loaded first (the web host, the model SDKs, the agent) without the compile cache, as before
// commands loaded on demand. Target: ≤ 150 ms over `node -e 0`. Each process also reports its
// own CPU time (bench/cpu-at-exit.cjs, preloaded into every row alike), which load on the machine
// inflates far less than the wall time. Then `aether serve` to the URL it prints (its CPU up to its
// exit on SIGINT), as each browser spec starts it. Then the two ways a person starts it: the `aether` launcher
// at the project's root, and `npx aether`, wall time only.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'aether.js');
const CPU_HOOK = ['-r', path.join(ROOT, 'bench', 'cpu-at-exit.cjs')];
const COMMANDS = ['tool', 'serve', 'run', 'sessions', 'mcp', 'rewind'].map((name) =>
  path.join(ROOT, 'main', 'cli', `${name}-command.ts`),
);
const RUNS = 5;
/** A source edited mid-run (the checkout is shared) leaves the bundle unused: it is rebuilt, this often. */
const REBUILDS = 3;

interface Ran {
  ms: number;
  cpuMs: number;
  stderr: string;
}

function spawnTimed(args: string[], env: NodeJS.ProcessEnv = process.env): Ran {
  const started = performance.now();
  const child = spawnSync(process.execPath, [...CPU_HOOK, ...args], { env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${args.join(' ')} exited with ${child.status}: ${child.stderr}`);
  const cpu = /cpu-at-exit ([\d.]+)/.exec(child.stderr);
  if (!cpu) throw new Error(`${args.join(' ')} did not report its CPU time: ${child.stderr}`);
  return { ms, cpuMs: Number(cpu[1]), stderr: child.stderr };
}

/**
 * `aether serve` from its start to the URL it prints (what a browser spec waits for before it opens
 * the page), then stopped with SIGINT: the wall time to the URL, and the CPU of the whole process.
 */
async function serveTimed(workspace: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  const started = performance.now();
  const child = spawn(process.execPath, [...CPU_HOOK, BIN, 'serve', '--workspace', workspace, '--model', 'demo'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ms = 0;
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    if (ms === 0 && /https?:\/\/\S+/.test(output)) {
      ms = performance.now() - started;
      child.kill('SIGINT');
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const code = await closed;
  if (ms === 0) throw new Error(`aether serve exited with ${code} before printing its URL: ${output}`);
  const cpu = /cpu-at-exit ([\d.]+)/.exec(output);
  if (!cpu) throw new Error(`aether serve did not report its CPU time: ${output}`);
  return { ms, cpuMs: Number(cpu[1]), stderr: output };
}

/** A command's wall time from start to exit, run as a person types it in the project's folder. */
function wallTimed(command: string, args: string[]): number {
  const started = performance.now();
  const child = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${child.status}: ${child.stderr}`);
  return ms;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const wallOf = (runs: Ran[]) => median(runs.map((ran) => ran.ms));
const cpuOf = (runs: Ran[]) => median(runs.map((ran) => ran.cpuMs));

export async function run(): Promise<void> {
  const workspace = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-cold-'));
  try {
    await writeFile(path.join(workspace, 'notes.txt'), 'one line\n');
    const tool = ['tool', 'read_file', '{"path":"notes.txt"}', '--workspace', workspace, '--sessions', workspace];
    const eager = [
      '--input-type=module',
      '-e',
      `for (const file of ${JSON.stringify(COMMANDS)}) await import(file);` +
        `const { main } = await import(${JSON.stringify(path.join(ROOT, 'main', 'cli', 'aether.ts'))});` +
        `process.exitCode = await main(${JSON.stringify(tool)});`,
    ];
    const sourcesEnv = { ...process.env, AETHER_CLI_SOURCES: '1' };
    const bundleEnv = { ...process.env, NODE_DEBUG: 'aether' };
    const noCache = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
    let rebuilds = 0;
    const bundled = async (): Promise<Ran> => {
      for (;;) {
        const ran = spawnTimed([BIN, ...tool], bundleEnv);
        if (ran.stderr.includes('running the bundle')) return ran;
        if (rebuilds === REBUILDS) throw new Error(`aether did not run the bundle: ${ran.stderr}`);
        rebuilds += 1;
        await bundleCli({ root: ROOT });
      }
    };
    await bundleCli({ root: ROOT });
    // Each way once first, which fills the compile cache as any earlier run would have.
    await bundled();
    spawnTimed([BIN, ...tool], sourcesEnv);
    const bare: Ran[] = [];
    const ours: Ran[] = [];
    const sources: Ran[] = [];
    const before: Ran[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      bare.push(spawnTimed(['-e', '0']));
      ours.push(await bundled());
      sources.push(spawnTimed([BIN, ...tool], sourcesEnv));
      before.push(spawnTimed(eager, noCache));
    }
    const over = (runs: Ran[]) =>
      `${fmt(wallOf(runs))} (${fmt(wallOf(runs) - wallOf(bare))} over node -e 0; CPU ${fmt(cpuOf(runs))}, ${fmt(cpuOf(runs) - cpuOf(bare))} over)`;
    console.log(
      `cold start: \`aether tool read_file\` process wall time, medians of ${RUNS}; node -e 0: ${fmt(wallOf(bare))}, CPU ${fmt(cpuOf(bare))}; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    console.log(`  node bin/aether.js, the bundle (out/cli)                  ${over(ours)}   target ≤ 150 ms over`);
    console.log(`  node bin/aether.js, the sources (AETHER_CLI_SOURCES=1)    ${over(sources)}`);
    console.log(`  before: every command's imports, no compile cache          ${over(before)}`);
    if (rebuilds > 0) console.log(`  (sources changed during the run: the bundle was rebuilt ${rebuilds}×)`);

    // `aether serve` up to its URL, as every browser spec starts it: its own home, the catalog kept offline.
    const home = path.join(workspace, 'home');
    const serveEnv = { ...process.env, AETHERCODEX_HOME: home, AETHERCODEX_CATALOG_URL: 'off' };
    await serveTimed(workspace, serveEnv);
    const served: Ran[] = [];
    for (let index = 0; index < RUNS; index += 1) served.push(await serveTimed(workspace, serveEnv));
    console.log(`  aether serve, start to its URL (then SIGINT)               ${over(served)}`);

    // How a person starts it: the launcher at the project's root against npx finding the project's bin.
    const launched: number[] = [];
    const npx: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      launched.push(wallTimed(path.join(ROOT, 'aether'), tool));
      npx.push(wallTimed('npx', ['--no-install', 'aether', ...tool]));
    }
    console.log(
      `  ./aether (the launcher), wall ${fmt(median(launched))}   npx aether: ${fmt(median(npx))}   ratio ${(median(launched) / median(npx)).toPrecision(3)}×`,
    );
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
