import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFixtureStep, startFixtureServer } from '../main/model/fixture-server.ts';
import type { StatusEvent } from '../protocol/events.ts';

// A session's first write is recorded by the file it changes while the workspace's first whole
// record (a scan of every file, each new one stored) is taken in the background; its later writes
// by a record of what changed since. `aether run` against the fixture model writes one file in each
// of five steps in a workspace of FILES source files: the first, a second right after it (the whole
// record still running), then, after a model that takes WAIT_MS to answer, three more. Each write's
// time from its start to its completion is read from the session's own events. The baseline is the
// three later writes.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILES = 5_000;
const WRITES = 5;
/** The model's time before the third write: the whole record has finished by then. */
const WAIT_MS = 3000;

async function writeWorkspace(workspace: string): Promise<void> {
  for (let folder = 0; folder < FILES / 100; folder += 1) {
    const dir = path.join(workspace, 'src', `part-${folder}`);
    await mkdir(dir, { recursive: true });
    for (let file = 0; file < 100; file += 1)
      await writeFile(
        path.join(dir, `module-${file}.ts`),
        `export const value${file} = ${folder * 100 + file};\n`.repeat(40),
      );
  }
}

function runAether(workspace: string, sessions: string, model: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'aether.js'),
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      model,
      '--allow',
      'write',
      'Write.',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, AETHER_CLI_SOURCES: '1', AETHERCODEX_SESSIONS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`aether run exited ${code}: ${stderr}`)))),
  );
}

/** Each write's time from tool_started to tool_completed, in the session's order. */
async function writeTimes(sessions: string): Promise<number[]> {
  const file = (await readdir(sessions)).find((name) => name.endsWith('.jsonl'));
  if (!file) throw new Error(`No session was written in ${sessions}.`);
  const started = new Map<string, number>();
  const times: number[] = [];
  for (const line of (await readFile(path.join(sessions, file), 'utf8')).trim().split('\n')) {
    const record = JSON.parse(line) as { kind: string; event?: StatusEvent };
    const event = record.event;
    if (event?.type === 'tool_started' && event.name === 'write_file')
      started.set(event.call_id, Date.parse(event.at!));
    if (event?.type === 'tool_completed' && started.has(event.call_id)) {
      if (event.is_error || !event.checkpoint?.id) throw new Error(`A write failed or took no checkpoint: ${line}`);
      times.push(Date.parse(event.at!) - started.get(event.call_id)!);
    }
  }
  return times;
}

export async function run(): Promise<void> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-first-write-'));
  const workspace = await realpath(path.join(base, '.'));
  const sessions = path.join(base, 'sessions');
  const tree = path.join(workspace, 'tree');
  await mkdir(sessions);
  await writeWorkspace(tree);
  let step = 0;
  const server = await startFixtureServer({
    respond: () => {
      const index = step++;
      if (index >= WRITES) return parseFixtureStep({ text: ['Done.'] });
      return parseFixtureStep({
        text: index === 2 ? ['Thinking', ' it over.'] : [],
        ...(index === 2 ? { chunk_delay_ms: WAIT_MS } : {}),
        tool_calls: [
          { id: `w${index}`, name: 'write_file', args: { path: `notes-${index}.txt`, content: `note ${index}\n` } },
        ],
        stop_reason: 'tool_use',
      });
    },
  });
  try {
    await runAether(tree, sessions, `compat:${server.baseURL}#fixture`);
    const [first, second, ...later] = await writeTimes(sessions);
    if (first === undefined || second === undefined || later.length !== WRITES - 2)
      throw new Error('The run made fewer writes than asked.');
    const laterMs = later.reduce((sum, ms) => sum + ms, 0) / later.length;
    console.log(`a session's writes in a workspace of ${FILES} files (aether run, fixture model, checkpoints on)`);
    console.log(
      `  first write, start to completion ${first} ms   second (whole record running) ${second} ms   ` +
        `later writes ${laterMs.toFixed(0)} ms   ratio first/later ${(first / Math.max(1, laterMs)).toFixed(1)}×`,
    );
  } finally {
    await server.close();
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
