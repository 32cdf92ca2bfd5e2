import { spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { isLiveOnly } from '../status/sink.ts';
import { readSessionFile } from './replay.ts';

// A child runs a long turn (a fixture model over HTTP, real file tools, the real fsynced session
// log) and prints every event the panel is told of. It is SIGKILLed after a random number of them;
// the replayed file must hold everything the panel saw, and every call it shows completed must be
// whole: started ahead of its execution, its content beside its completion. The reads do not wait
// for their start's fsync (registry-start.test.ts holds a start's write to show which calls wait):
// whatever the kill left open, a read whose start was lost included, is closed as interrupted.
// A read's caller does not wait for its records at all, so every other run also loses the power:
// the file is cut anywhere after the last line the panel was told of, and the same holds.

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'crashing-turn.ts');
const RUNS = 50;
/** Children running at once. */
const AT_ONCE = 3;
// 16 model steps of 3 calls: about 150 events the panel is told of.
const TOLD_AT_MOST = 150;

/** A small seeded generator, so a failing run can be told apart and repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

interface Killed {
  file: string;
  told: StatusEvent[];
}

async function runAndKill(root: string, workspace: string, killAfter: number): Promise<Killed> {
  const proc = spawn(process.execPath, [child, root, workspace], { stdio: ['ignore', 'pipe', 'pipe'] });
  let file = '';
  const told: StatusEvent[] = [];
  let buffered = '';
  let errors = '';
  proc.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const message = JSON.parse(line) as StatusEvent | { type: 'session_file'; file: string };
      if (message.type === 'session_file') file = message.file;
      else told.push(message);
      if (told.length >= killAfter || message.type === 'turn_completed') proc.kill('SIGKILL');
    }
  });
  await exited;
  if (!file) throw new Error(`The turn never started: ${errors}`);
  return { file, told };
}

/**
 * What a power loss can cost at most: everything after the last line the panel was told of (only
 * that much was promised flushed), cut at `fraction` of the rest, possibly mid-line.
 */
async function losePower(file: string, told: readonly StatusEvent[], fraction: number): Promise<void> {
  const bytes = await readFile(file);
  const lastTold = told.findLast((event) => !isLiveOnly(event));
  let kept = bytes.indexOf(0x0a) + 1; // the header
  if (lastTold) {
    const at = bytes.indexOf(Buffer.from(`"seq":${lastTold.seq},`));
    if (at === -1) throw new Error(`The event the panel was told of last (seq ${lastTold.seq}) is not in ${file}.`);
    kept = bytes.indexOf(0x0a, at) + 1;
  }
  await truncate(file, kept + Math.floor((bytes.length - kept) * fraction));
}

/** Runs one turn, kills it after `killAfter` events and checks its file; says whether it was cut mid-call. */
async function killedRun(run: number, killAfter: number, powerLoss: number | null): Promise<boolean> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-crash-sessions-'));
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-crash-ws-')));
  try {
    const { file, told } = await runAndKill(root, workspace, killAfter);
    if (powerLoss !== null) await losePower(file, told, powerLoss);
    const replay = await readSessionFile(file);
    const where = `run ${run}, killed after ${killAfter} events${powerLoss === null ? '' : `, power lost at ${powerLoss.toFixed(2)} of what was not promised`}`;
    const repaired = new Set(replay.repairs.flatMap((record) => (record.kind === 'event' ? [record.event.seq] : [])));
    const written = replay.events.filter((event) => !repaired.has(event.seq));
    const writtenSeqs = new Set(written.map((event) => event.seq));

    // Everything durable the panel saw is in the file.
    const lost = told.filter((event) => !isLiveOnly(event) && !writtenSeqs.has(event.seq));
    expect(lost, where).toEqual([]);

    // Every completion in the file is whole: started before, its content written too.
    const started = new Set<string>();
    for (const event of written) {
      if (event.type === 'tool_started') started.add(event.call_id);
      if (event.type === 'tool_completed') {
        expect(started.has(event.call_id), `${where}: ${event.call_id} completed unstarted`).toBe(true);
        expect(replay.contents.has(event.call_id), `${where}: ${event.call_id} has no content`).toBe(true);
      }
    }
    // A call the file leaves open is closed as interrupted, never shown done.
    const completed = new Set(replay.events.flatMap((e) => (e.type === 'tool_completed' ? [e.call_id] : [])));
    expect(
      [...started].filter((id) => !completed.has(id)),
      where,
    ).toEqual([]);
    // Every call the model asked for, its start written or not, is completed or closed as interrupted.
    const asked = written.flatMap((event) =>
      event.type === 'assistant_message' ? event.tool_calls.map((call) => call.call_id) : [],
    );
    expect(
      asked.filter((id) => !completed.has(id)),
      `${where}: calls left open`,
    ).toEqual([]);
    return replay.repairs.some((record) => record.kind === 'event' && record.event.type === 'tool_completed');
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(workspace, { recursive: true, force: true });
  }
}

it('loses nothing the panel was told, and shows no call completed that is not whole, when killed at any instant', async () => {
  const next = random(20_261_201);
  const killPoints = Array.from({ length: RUNS }, () => 1 + Math.floor(next() * TOLD_AT_MOST));
  // Every other run also loses the power: what was written but not yet flushed may go too.
  const powerLosses = Array.from({ length: RUNS }, (_, run) => (run % 2 === 1 ? next() : null));
  // A few children at a time: each spends most of its life loading modules or waiting on fsync.
  let cutMidCall = 0;
  let taken = 0;
  const worker = async () => {
    for (let run = taken++; run < RUNS; run = taken++)
      if (await killedRun(run, killPoints[run]!, powerLosses[run]!)) cutMidCall += 1;
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  // The kills really landed inside calls, not only between turns.
  expect(cutMidCall).toBeGreaterThan(RUNS / 4);
}, 600_000);
