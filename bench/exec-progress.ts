import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInGroup } from '../main/tools/exec/run-in-group.ts';
import { captureOutput } from '../main/tools/exec/exec-output.ts';
import { LIVE_WINDOW_BYTES, utf8Suffix } from '../main/tools/exec/output-accumulator.ts';
import { usePortableNewlineCounter } from '../main/tools/exec/count-newlines.ts';
import { SpillWriter } from '../main/tools/exec/spill-writer.ts';
import { systemClock } from '../main/tools/progress-reporter.ts';
import { mib } from './measure.ts';

// The progress path on 100 MB of command output: total bytes of all progress reports and peak RSS,
// against a naive accumulator measured in the same run (keeps every chunk, reports every chunk).
// Each variant runs in a child process of its own, so each peak RSS is its own.

const OUTPUT_BYTES = 100 * 1024 * 1024;
const COMMAND = `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${OUTPUT_BYTES}`;

interface Measurement {
  variant: string;
  outputBytes: number;
  reports: number;
  reportBytes: number;
  /** RSS once the modules are loaded, before any output: what both variants start from. */
  startRssBytes: number;
  peakRssBytes: number;
  wallMs: number;
  /** CPU time of the measuring process (its threads included), which a loaded machine inflates less than wall time. */
  cpuMs?: number;
}

async function ours(variant = 'ours'): Promise<Measurement> {
  const startRssBytes = process.memoryUsage().rss;
  const sessionDir = await mkdtemp(path.join(os.tmpdir(), 'bench-exec-'));
  let reports = 0;
  let reportBytes = 0;
  const started = performance.now();
  const capture = captureOutput({
    callId: 'bench',
    sessionDir,
    report: (progress) => {
      reports += 1;
      reportBytes += Buffer.byteLength(JSON.stringify(progress));
    },
  });
  await runInGroup({
    shell: '/bin/sh',
    command: COMMAND,
    cwd: sessionDir,
    env: process.env,
    timeoutMs: 600_000,
    killGraceMs: 2000,
    signal: new AbortController().signal,
    clock: systemClock,
    append: (chunk) => capture.append(chunk),
    drained: () => capture.drained(),
  });
  const final = await capture.finish();
  const wallMs = performance.now() - started;
  await rm(sessionDir, { recursive: true, force: true });
  return {
    variant,
    outputBytes: final.totalBytes,
    reports,
    reportBytes,
    startRssBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    wallMs,
  };
}

/** The baseline: every chunk kept in memory, decoded whole at the end, and reported as it arrives. */
async function naive(): Promise<Measurement> {
  const startRssBytes = process.memoryUsage().rss;
  const chunks: Buffer[] = [];
  let reports = 0;
  let reportBytes = 0;
  const started = performance.now();
  const decoder = new TextDecoder();
  await new Promise<void>((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      const text = decoder.decode(chunk, { stream: true });
      reports += 1;
      reportBytes += Buffer.byteLength(JSON.stringify({ text }));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => resolve());
  });
  const whole = Buffer.concat(chunks).toString('utf8');
  const wallMs = performance.now() - started;
  return {
    variant: 'naive',
    outputBytes: Buffer.byteLength(whole),
    reports,
    reportBytes,
    startRssBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    wallMs,
  };
}

/**
 * The floor: the same pipe read and every chunk dropped. `detached`: the command leads a process
 * group of its own, as exec runs it (it is a new scheduling group too, which costs time on a busy
 * machine whatever reads the pipe).
 */
async function bare(detached: boolean): Promise<Measurement> {
  const startRssBytes = process.memoryUsage().rss;
  let outputBytes = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['ignore', 'pipe', 'pipe'], detached });
    const onData = (chunk: Buffer): void => {
      outputBytes += chunk.length;
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => resolve());
  });
  const wallMs = performance.now() - started;
  return unreported(detached ? 'bare-group' : 'bare', outputBytes, startRssBytes, wallMs);
}

/**
 * The same pipe read from its own process group and every chunk written to a file, pausing the pipe
 * while the file is behind, and nothing else: `batched` through exec's spill writer (the floor when
 * the output spills), or one write per read through a write stream (how exec wrote it before).
 */
async function readAndWrite(batched: boolean): Promise<Measurement> {
  const startRssBytes = process.memoryUsage().rss;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-exec-'));
  const file = path.join(dir, 'output.txt');
  let outputBytes = 0;
  const started = performance.now();
  const writer = batched ? new SpillWriter(file, () => {}) : null;
  const stream = batched ? null : createWriteStream(file, { flags: 'w', mode: 0o600 });
  await new Promise<void>((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const resume = (): void => {
      child.stdout.resume();
      child.stderr.resume();
    };
    const onData = (chunk: Buffer): void => {
      outputBytes += chunk.length;
      if (writer ? writer.write(chunk) : stream!.write(chunk)) return;
      child.stdout.pause();
      child.stderr.pause();
      if (writer) void writer.drained().then(resume);
      else stream!.once('drain', resume);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => resolve());
  });
  if (writer) await writer.close();
  else await new Promise<void>((resolve, reject) => stream!.once('error', reject).end(() => resolve()));
  const wallMs = performance.now() - started;
  await rm(dir, { recursive: true, force: true });
  return unreported(batched ? 'spill-floor' : 'write-per-read', outputBytes, startRssBytes, wallMs);
}

/** A floor's measurement: it reports nothing, its peak memory is the process's. */
function unreported(variant: string, outputBytes: number, startRssBytes: number, wallMs: number): Measurement {
  return {
    variant,
    outputBytes,
    reports: 0,
    reportBytes: 0,
    startRssBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    wallMs,
  };
}

/**
 * The live window as it was kept before: every chunk decoded as it arrives, appended to a string and
 * re-encoded on each trim (plain Node, beside the raw tail and the same throttled reports).
 */
async function decodeEveryChunk(): Promise<Measurement> {
  const startRssBytes = process.memoryUsage().rss;
  const decoder = new TextDecoder('utf-8');
  let live = '';
  let liveBytes = 0;
  let outputBytes = 0;
  let reports = 0;
  let reportBytes = 0;
  let lastReport = 0;
  const tail: Buffer[] = [];
  let tailBytes = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const onData = (chunk: Buffer): void => {
      outputBytes += chunk.length;
      tail.push(chunk);
      tailBytes += chunk.length;
      while (tail.length > 1 && tailBytes - tail[0]!.length >= 48 * 1024) tailBytes -= tail.shift()!.length;
      const text = decoder.decode(chunk, { stream: true });
      live += text;
      liveBytes += Buffer.byteLength(text);
      if (liveBytes > LIVE_WINDOW_BYTES * 2) {
        live = utf8Suffix(live, LIVE_WINDOW_BYTES);
        liveBytes = Buffer.byteLength(live);
      }
      const now = performance.now();
      if (now - lastReport >= 150) {
        lastReport = now;
        reports += 1;
        reportBytes += Buffer.byteLength(JSON.stringify({ text: live }));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => resolve());
  });
  const wallMs = performance.now() - started;
  return {
    variant: 'decode-every-chunk',
    outputBytes,
    reports,
    reportBytes,
    startRssBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    wallMs,
  };
}

function measureInChild(variant: string): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--variant', variant], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (data: Buffer) => (out += data.toString()));
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as Measurement)
        : reject(new Error(`the ${variant} variant exited with ${code}`)),
    );
  });
}

export async function run(): Promise<void> {
  // Wall times on a shared machine vary run to run: three rounds, interleaved, and the medians.
  const rounds: Record<
    'ours' | 'bare' | 'bare-group' | 'decode-every-chunk' | 'indexof-lines' | 'spill-floor' | 'write-per-read',
    Measurement[]
  > = {
    ours: [],
    bare: [],
    'bare-group': [],
    'decode-every-chunk': [],
    'indexof-lines': [],
    'spill-floor': [],
    'write-per-read': [],
  };
  for (let round = 0; round < 3; round += 1) {
    for (const variant of Object.keys(rounds) as (keyof typeof rounds)[])
      rounds[variant].push(await measureInChild(variant));
  }
  const medianOf = (list: Measurement[]): Measurement =>
    [...list].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(list.length / 2)]!;
  const measuredOurs = medianOf(rounds.ours);
  const measuredBare = medianOf(rounds.bare);
  const measuredGroup = medianOf(rounds['bare-group']);
  const measuredBefore = medianOf(rounds['decode-every-chunk']);
  const measuredIndexOf = medianOf(rounds['indexof-lines']);
  const measuredFloor = medianOf(rounds['spill-floor']);
  const measuredPerRead = medianOf(rounds['write-per-read']);
  const measuredNaive = await measureInChild('naive');
  console.log(`exec progress path, ${mib(OUTPUT_BYTES)} of command output`);
  for (const m of [measuredOurs, measuredNaive]) {
    const label = m.variant === 'ours' ? 'accumulator + 150 ms throttle' : 'naive: keep all, report every chunk';
    console.log(
      `  ${label.padEnd(36)} output ${mib(m.outputBytes).padStart(10)}   reports ${String(m.reports).padStart(5)} totalling ${mib(m.reportBytes).padStart(10)}   peak RSS ${mib(m.peakRssBytes).padStart(10)} (from ${mib(m.startRssBytes)})   ${(m.wallMs / 1000).toFixed(2)} s`,
    );
  }
  const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toPrecision(3)}×` : 'n/a');
  const seconds = (m: Measurement): string => `${(m.wallMs / 1000).toFixed(2)} s`;
  console.log(
    `  wall time (medians of 3) against a bare read-and-drop of the same pipe from its own process group (${seconds(measuredGroup)}; target ≤ 1.5×): ` +
      `ours ${ratio(measuredOurs.wallMs, measuredGroup.wallMs)} (${seconds(measuredOurs)}), ` +
      `before — every chunk decoded, the window re-encoded on trim — ${ratio(measuredBefore.wallMs, measuredGroup.wallMs)} (${seconds(measuredBefore)}); ` +
      `the same read from the bench's own group: ${seconds(measuredBare)}`,
  );
  console.log(
    `  lines counted 16 bytes a step (WebAssembly SIMD): ours ${seconds(measuredOurs)}, one Buffer.indexOf per line (before) ${seconds(measuredIndexOf)}: ratio ${ratio(measuredOurs.wallMs, measuredIndexOf.wallMs)}`,
  );
  console.log(
    `  floor when the output spills — the same read writing every chunk to a file in batches of 256 KiB, nothing else: ${seconds(measuredFloor)}, ${ratio(measuredFloor.wallMs, measuredGroup.wallMs)} the bare read; ours ${ratio(measuredOurs.wallMs, measuredFloor.wallMs)} that floor; ` +
      `one write per read of the pipe (exec's writes before): ${seconds(measuredPerRead)}, ${ratio(measuredPerRead.wallMs, measuredGroup.wallMs)} the bare read`,
  );
  const cpu = (list: Measurement[]): number =>
    [...list].map((m) => m.cpuMs ?? 0).sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const cpuSeconds = (list: Measurement[]): string => `${(cpu(list) / 1000).toFixed(2)} s`;
  console.log(
    `  CPU time of the reading process, its threads included (medians of 3; less swayed by other load than wall time): ours ${cpuSeconds(rounds.ours)}, ` +
      `bare read ${cpuSeconds(rounds['bare-group'])} (ours ${ratio(cpu(rounds.ours), cpu(rounds['bare-group']))}), spill floor ${cpuSeconds(rounds['spill-floor'])}, ` +
      `before: one write per read ${cpuSeconds(rounds['write-per-read'])}, one Buffer.indexOf per line ${cpuSeconds(rounds['indexof-lines'])}`,
  );
  const growth = (m: Measurement): number => m.peakRssBytes - m.startRssBytes;
  console.log(
    `  ratios (ours / naive): report bytes ${ratio(measuredOurs.reportBytes, measuredNaive.reportBytes)}, peak RSS ${ratio(measuredOurs.peakRssBytes, measuredNaive.peakRssBytes)}, RSS growth ${ratio(growth(measuredOurs), growth(measuredNaive))}`,
  );
}

const variantIndex = process.argv.indexOf('--variant');
if (variantIndex !== -1) {
  const variant = process.argv[variantIndex + 1];
  const variants: Record<string, () => Promise<Measurement>> = {
    naive,
    bare: () => bare(false),
    'bare-group': () => bare(true),
    'decode-every-chunk': decodeEveryChunk,
    'indexof-lines': () => {
      usePortableNewlineCounter();
      return ours('indexof-lines');
    },
    'spill-floor': () => readAndWrite(true),
    'write-per-read': () => readAndWrite(false),
  };
  const cpuBefore = process.cpuUsage();
  const measured = await (variants[variant ?? ''] ?? ours)();
  const cpuUsed = process.cpuUsage(cpuBefore);
  measured.cpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
  process.stdout.write(JSON.stringify(measured));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await run();
}
