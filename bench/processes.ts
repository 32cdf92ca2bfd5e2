import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ProcessTable } from '../main/tools/processes/process-table.ts';
import { mib } from './measure.ts';

// Background processes: the app's memory while one prints 100 MB (its output in the bounded ring
// and on disk), against every chunk kept as it arrives; and the latency from a line printed to a
// wait_for returning it, against a bare 'data' listener on the same kind of pipe. Both in one run.

const OUTPUT_BYTES = 100 * 1024 * 1024;
/** Five and ten times as much: the growth must not follow the volume. */
const MORE_OUTPUT_BYTES = [5 * OUTPUT_BYTES, 10 * OUTPUT_BYTES] as const;
const flood = (bytes: number): string =>
  `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${bytes}`;
const FLOOD = flood(OUTPUT_BYTES);
const ECHO = 'while read line; do echo "got $line"; done';
const ROUNDS = 200;

async function ringMemory(sessionDir: string, bytes: number): Promise<{ growth: number; held: number }> {
  const table = new ProcessTable();
  const before = process.memoryUsage().rss;
  let peak = before;
  let held = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = await table.start({
    callId: 'bench',
    sessionDir,
    tty: false,
    request: { shell: '/bin/sh', command: flood(bytes), cwd: sessionDir, env: process.env },
  });
  const heldSample = setInterval(() => (held = Math.max(held, started.output.heldBytes)), 5);
  await started.ended;
  clearInterval(sample);
  clearInterval(heldSample);
  if (started.output.bytes !== bytes) throw new Error(`read ${started.output.bytes} bytes`);
  await table.close();
  return { growth: peak - before, held };
}

async function keepEverything(): Promise<number> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    const child = spawn('/bin/sh', ['-c', FLOOD], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', () => resolve());
  });
  clearInterval(sample);
  if (chunks.reduce((sum, chunk) => sum + chunk.length, 0) !== OUTPUT_BYTES) throw new Error('short read');
  chunks.length = 0;
  return peak - before;
}

/** Microseconds from writing a line to its answer being seen, per round: through wait_for. */
async function waitForLatency(sessionDir: string): Promise<number[]> {
  const table = new ProcessTable();
  const echo = await table.start({
    callId: 'bench-echo',
    sessionDir,
    tty: false,
    request: { shell: '/bin/sh', command: ECHO, cwd: sessionDir, env: process.env },
  });
  const times: number[] = [];
  const signal = new AbortController().signal;
  for (let round = 0; round < ROUNDS; round += 1) {
    const from = echo.output.bytes;
    const started = performance.now();
    echo.write(`x${round}\n`);
    const end = await echo.waitFor(new RegExp(`^got x${round}$`), from, 10_000, signal);
    if (end.kind !== 'matched') throw new Error(`round ${round}: ${end.kind}`);
    times.push((performance.now() - started) * 1000);
  }
  await table.close();
  return times;
}

/** The same rounds with a bare listener on the child's stdout: the pipe and the shell's own time. */
async function bareLatency(): Promise<number[]> {
  const child = spawn('/bin/sh', ['-c', ECHO], { stdio: ['pipe', 'pipe', 'pipe'] });
  const times: number[] = [];
  let seen = '';
  let waiting: { line: string; done: () => void } | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    if (waiting && seen.includes(waiting.line)) waiting.done();
  });
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      waiting = { line: `got x${round}\n`, done: resolve };
      child.stdin.write(`x${round}\n`);
    });
    times.push((performance.now() - started) * 1000);
    seen = '';
  }
  child.kill();
  return times;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One memory variant in a fresh process of its own, so each peak is its own: RSS growth and bytes held. */
function inChild(variant: 'ring' | 'keep', bytes = OUTPUT_BYTES): Promise<{ growth: number; held: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), variant, String(bytes)],
      { maxBuffer: 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as { growth: number; held: number })),
    );
  });
}

export async function run(): Promise<void> {
  const sessionDir = await mkdtemp(path.join(os.tmpdir(), 'bench-processes-'));
  try {
    console.log('Background processes');
    const ours = await inChild('ring');
    const naive = await inChild('keep');
    console.log(
      `  100 MB printed in the background: RSS grew ${mib(ours.growth)} (output held in memory at most ${mib(ours.held)}), ` +
        `keeping every chunk grew ${mib(naive.growth)}: ${(ours.growth / naive.growth).toFixed(3)}x`,
    );
    for (const bytes of MORE_OUTPUT_BYTES) {
      const more = await inChild('ring', bytes);
      const times = bytes / OUTPUT_BYTES;
      console.log(
        `  ${bytes / 1024 / 1024} MB printed in the background: RSS grew ${mib(more.growth)} (held at most ${mib(more.held)}), ` +
          `against ${mib(ours.growth)} for 100 MB in the same run: ${(more.growth / ours.growth).toFixed(2)}x for ${times}x the output`,
      );
    }
    const bare = median(await bareLatency());
    const waited = median(await waitForLatency(sessionDir));
    console.log(
      `  a line to wait_for returning it (median of ${ROUNDS}): ${waited.toFixed(0)} us, ` +
        `a bare listener on the pipe ${bare.toFixed(0)} us: ${(waited / bare).toFixed(2)}x`,
    );
  } finally {
    await rm(sessionDir, { recursive: true, force: true });
  }
}

const variant = process.argv[2];
if (import.meta.url === `file://${process.argv[1]}` && (variant === 'ring' || variant === 'keep')) {
  const sessionDir = await mkdtemp(path.join(os.tmpdir(), 'bench-processes-'));
  const measured =
    variant === 'ring'
      ? await ringMemory(sessionDir, Number(process.argv[3] ?? OUTPUT_BYTES))
      : { growth: await keepEverything(), held: OUTPUT_BYTES };
  await rm(sessionDir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(measured));
}
