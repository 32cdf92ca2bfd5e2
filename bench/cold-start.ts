import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt } from './measure.ts';

// `aether tool read_file` as a process, from start to exit, against `node -e 0` on the same Node.
// Today: bin/aether.js, which imports only the command it runs, only the named built-in tool's
// module and only zod's English locale, and keeps Node's compile cache. Measured in the same run:
// the command with every built-in tool and all of zod loaded, and every command's module loaded
// first (the web host, the model SDKs, the agent), without the compile cache. Target: ≤ 150 ms
// over `node -e 0`.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'aether.js');
const COMMANDS = ['tool', 'serve', 'run', 'sessions', 'mcp', 'rewind'].map((name) =>
  path.join(ROOT, 'main', 'cli', `${name}-command.ts`),
);
const RUNS = 5;

function wall(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${args.join(' ')} exited with ${child.status}: ${child.stderr}`);
  return ms;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

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
    // The command as it was before built-in tools loaded by name: every tool's module, the SSH client
    // for closing pooled connections and every zod locale, loaded whatever the tool.
    const allTools = [
      '--input-type=module',
      '-e',
      `const { enableCompileCache } = await import('node:module'); enableCompileCache();` +
        `await import(${JSON.stringify(path.join(ROOT, 'main', 'tools', 'index.ts'))});` +
        `await import(${JSON.stringify(path.join(ROOT, 'main', 'tools', 'ssh', 'ssh-pool.ts'))});` +
        `const { main } = await import(${JSON.stringify(path.join(ROOT, 'main', 'cli', 'aether.ts'))});` +
        `process.exitCode = await main(${JSON.stringify(tool)});`,
    ];
    const noCache = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
    wall([BIN, ...tool]); // fills the compile cache, as any earlier run would have
    wall(allTools);
    const bare: number[] = [];
    const ours: number[] = [];
    const everyTool: number[] = [];
    const before: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      bare.push(wall(['-e', '0']));
      ours.push(wall([BIN, ...tool]));
      everyTool.push(wall(allTools));
      before.push(wall(eager, noCache));
    }
    const floor = median(bare);
    const over = (samples: number[]) => `${fmt(median(samples))} (${fmt(median(samples) - floor)} over node -e 0)`;
    console.log(
      `cold start: \`aether tool read_file\` process wall time, medians of ${RUNS}; node -e 0: ${fmt(floor)}`,
    );
    console.log(`  node bin/aether.js (one command's imports, compile cache)  ${over(ours)}   target ≤ 150 ms over`);
    console.log(`  every built-in tool's module loaded (before), compile cache ${over(everyTool)}`);
    console.log(`  before: every command's imports, no compile cache          ${over(before)}`);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
