import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { parseFixtureStep, startFixtureServer } from '../main/model/fixture-server.ts';
import { socketProtocols } from '../protocol/socket.ts';

// What a new `aether serve` holds after its first turn. The server is started as a person starts
// it, the panel's socket is opened over real HTTP with the printed token, the page's first requests
// are made (panel:info, settings:get), and one turn is sent with the fixture model: a read_file call,
// then an answer. The resident set size is read from /proc before the first turn, after it, and
// after a second, identical turn. Baselines in the same run: the second turn's growth, the same
// server with the context estimate's tokenizer tables (gpt-tokenizer's o200k_base, which a turn
// loads only once the context nears compaction) required before it starts, and the peak resident
// set of the same turn through `aether run`.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AETHER = path.join(ROOT, 'bin', 'aether.js');

/** The turn both hosts run: read a file, then answer. */
function turnSteps(): () => ReturnType<typeof parseFixtureStep> {
  let step = 0;
  return () =>
    parseFixtureStep(
      step++ % 2 === 0
        ? { tool_calls: [{ name: 'read_file', args: { path: 'src/app.ts' } }], stop_reason: 'tool_use' }
        : { text: ['The file exports ', 'one function', ' that greets.'] },
    );
}

async function writeWorkspace(workspace: string): Promise<void> {
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  await writeFile(
    path.join(workspace, 'src', 'app.ts'),
    'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n'.repeat(20),
  );
}

const TOKENIZER = path.join(ROOT, 'node_modules', 'gpt-tokenizer', 'cjs', 'encoding', 'o200k_base.js');

function env(home: string, preload?: string): NodeJS.ProcessEnv {
  const nodeOptions = [process.env.NODE_OPTIONS, preload ? `--require ${preload}` : ''].filter(Boolean).join(' ');
  return {
    ...process.env,
    AETHER_CLI_SOURCES: '1',
    AETHERCODEX_SESSIONS: '',
    AETHERCODEX_HOME: home,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  };
}

/** Resident set size of a running process, in bytes (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`No VmRSS for process ${pid}.`);
  return Number(kib) * 1024;
}

function startServe(workspace: string, sessions: string, home: string, model: string, preload?: string) {
  const child = spawn(
    process.execPath,
    [AETHER, 'serve', '--workspace', workspace, '--sessions', sessions, '--model', model],
    { cwd: ROOT, env: env(home, preload), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = new Promise<URL>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /Open (http:\/\/\S+)/.exec(stdout)?.[1];
      if (found) resolve(new URL(found));
    });
    child.on('close', (code) => reject(new Error(`aether serve exited ${code} before it served: ${stderr}`)));
  });
  return { child, url };
}

/** The panel's socket, as the page opens it: the token among the offered subprotocols. */
async function openPanel(url: URL) {
  const token = url.searchParams.get('token') ?? '';
  const ws = new WebSocket(`ws://${url.host}/api`, socketProtocols(token), { origin: url.origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let id = 0;
  const answers = new Map<number, (message: { response?: unknown; error?: string }) => void>();
  const ended: (() => void)[] = [];
  ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      response?: unknown;
      error?: string;
      event?: string;
      payload?: { type?: string };
    };
    if (message.id !== undefined) answers.get(message.id)?.(message);
    const type = message.payload?.type;
    if (message.event === 'status' && (type === 'turn_completed' || type === 'turn_failed'))
      for (const done of ended.splice(0)) done();
  });
  const request = (channel: string, body?: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      id += 1;
      answers.set(id, (message) =>
        message.error === undefined ? resolve(message.response) : reject(new Error(`${channel}: ${message.error}`)),
      );
      ws.send(JSON.stringify({ id, channel, request: body }));
    });
  const turn = async (text: string) => {
    const done = new Promise<void>((resolve) => ended.push(resolve));
    const sent = (await request('turn:send', { text })) as { ok: boolean; error?: string };
    if (!sent.ok) throw new Error(`turn:send: ${sent.error}`);
    await done;
  };
  return { request, turn, close: () => ws.close() };
}

/** The resident set once it settles after a turn (the process's own work ended). */
async function settledRss(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return rssOf(pid);
}

async function stop(child: ChildProcess): Promise<void> {
  const closed = new Promise((resolve) => child.on('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

async function runPeakRss(workspace: string, sessions: string, home: string, model: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      path.join(ROOT, 'bench', 'max-rss-at-exit.cjs'),
      AETHER,
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      model,
      'What does src/app.ts export?',
    ],
    { cwd: ROOT, env: env(home), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.on('close', resolve));
  const peak = /max-rss-at-exit (\d+)/.exec(stderr)?.[1];
  if (code !== 0 || peak === undefined) throw new Error(`aether run exited ${String(code)}: ${stderr}`);
  return Number(peak);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A new server's resident set before its first turn, after it, and after a second. */
async function serveTurns(base: string, name: string, model: string, preload?: string) {
  const { child, url } = startServe(
    path.join(base, 'ws'),
    path.join(base, `${name}-sessions`),
    path.join(base, 'home'),
    model,
    preload,
  );
  try {
    const panel = await openPanel(await url);
    await panel.request('panel:info');
    await panel.request('settings:get');
    const pid = child.pid ?? 0;
    const before = await settledRss(pid);
    await panel.turn('What does src/app.ts export?');
    const first = await settledRss(pid);
    await panel.turn('What does src/app.ts export?');
    const second = await settledRss(pid);
    panel.close();
    return { before, first: first - before, second: second - first };
  } finally {
    await stop(child);
  }
}

export async function run(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The serve-memory bench serves the built panel: run `npm run build:renderer` first.');
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-bench-serve-memory-')));
  await mkdir(path.join(base, 'home'));
  await writeWorkspace(path.join(base, 'ws'));
  const models = await Promise.all([0, 1, 2].map(() => startFixtureServer({ respond: turnSteps() })));
  const model = (index: number) => `compat:${models[index]?.baseURL ?? ''}#fixture`;
  try {
    const plain = await serveTurns(base, 'plain', model(0));
    const preloaded = await serveTurns(base, 'preloaded', model(1), TOKENIZER);
    const runPeak = await runPeakRss(
      path.join(base, 'ws'),
      path.join(base, 'run-sessions'),
      path.join(base, 'home'),
      model(2),
    );
    console.log(
      'aether serve: resident set before and after its first turn (fixture model, a read_file call and an answer)',
    );
    console.log(`  before ${mb(plain.before)}   first turn +${mb(plain.first)}   second turn +${mb(plain.second)}`);
    console.log(
      `  tokenizer tables required at start: before ${mb(preloaded.before)}   first turn +${mb(preloaded.first)}   ` +
        `second turn +${mb(preloaded.second)}`,
    );
    console.log(`  the same turn through aether run: peak ${mb(runPeak)}`);
  } finally {
    for (const server of models) await server.close();
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
