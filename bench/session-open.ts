import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeBigSession } from '../test/big-session.ts';
import { compare, mib, type Timing } from './measure.ts';

// Opening a session of 10 000 tool calls in the panel's host, each run in a fresh process
// (session-open-child.ts): the earlier way (three whole-file reads, every event in one message)
// against one streamed read and the newest page. Target: first message ≤ 300 ms, no message over
// 1 MB, host memory after ≤ 1.2 × before + 20 MB.

interface Opened {
  ms: number;
  cpuMs: number;
  /** Node's start and the child's imports, before the open. */
  startup: number;
  steps: Record<string, number>;
  bytes: number;
  heapBefore: number;
  heapAfter: number;
}

const CHILD = new URL('./session-open-child.ts', import.meta.url).pathname;
const RUNS = 3;

type Mode = 'old' | 'new' | 'every-event' | 'floor';

function openOnce(mode: Mode, root: string, id: string): Opened {
  const child = spawnSync(process.execPath, ['--expose-gc', CHILD, mode, root, id], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`session-open-child ${mode} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Opened;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-open-'));
  try {
    const file = await writeBigSession({ root, id: 'long', workspace: '/w', calls: 10_000 });
    const size = (await stat(file)).size;
    console.log(
      `open a session of 10 000 tool calls (${mib(size)}) → first message ready in the host, fresh process each`,
    );
    const results: Record<Mode, Opened[]> = { old: [], new: [], 'every-event': [], floor: [] };
    for (let run = 0; run < RUNS; run += 1) {
      results.old.push(openOnce('old', root, 'long'));
      results.new.push(openOnce('new', root, 'long'));
      results['every-event'].push(openOnce('every-event', root, 'long'));
      results.floor.push(openOnce('floor', root, 'long'));
    }
    const timing = (list: Opened[]): Timing => ({ medianMs: median(list.map((entry) => entry.ms)), runs: list.length });
    console.log(
      `  ${compare('one streamed read, newest page', timing(results.new), timing(results.old), 'three reads, all events')}`,
    );
    console.log(
      `  ${compare('the same against its floor', timing(results.new), timing(results.floor), 'read + JSON.parse of each line')}`,
    );
    const cpu = (mode: Mode) => `${median(results[mode].map((entry) => entry.cpuMs)).toFixed(0)} ms`;
    const steps = Object.keys(results.new[0]?.steps ?? {}).map(
      (name) => `${name} at ${median(results.new.map((entry) => entry.steps[name] ?? 0)).toFixed(0)} ms`,
    );
    console.log(
      `  newest page: ${steps.join(', ')}; CPU ${cpu('new')} (three reads: ${cpu('old')}, floor: ${cpu('floor')}); ` +
        `before it, not counted: Node's start and the child's imports ${median(results.new.map((entry) => entry.startup)).toFixed(0)} ms`,
    );
    const labels: Record<Exclude<Mode, 'floor'>, string> = {
      old: 'before: three reads, all events',
      'every-event': 'resumed, holding every event (before)',
      new: 'now: resumed, newest page',
    };
    for (const mode of ['old', 'every-event', 'new'] as const) {
      const list = results[mode];
      const before = median(list.map((entry) => entry.heapBefore));
      const after = median(list.map((entry) => entry.heapAfter));
      const budget = 1.2 * before + 20 * 1024 * 1024;
      console.log(
        `  ${labels[mode]}: first message ${mib(median(list.map((entry) => entry.bytes)))}; ` +
          `heap + external ${mib(before)} → ${mib(after)} after, +${mib(after - before)} (target ≤ ${mib(budget)})`,
      );
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
