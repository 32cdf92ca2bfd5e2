import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFixtureStep, startFixtureServer } from '../main/model/fixture-server.ts';
import { sessionFileOf } from '../main/session/session-log.ts';
import { writeLongRunWorkspace, type LongRunShape } from './long-run-calls.ts';
import { mib } from './measure.ts';
import { recordConversation, writeAetherSession, writePiSession, type Conversation } from './resume-session.ts';

// Resuming a long session: `aether run --resume ID "go on"` on a 10 000-call session (40 steps of
// 250 parallel reads and searches, the session a long `aether run` leaves), against the fixture
// model over real HTTP, each run in a process of its own. Three figures: the time from the process's
// start to the fixture's first model request (its arrival, before its body is read); the resume's own
// work, that time less the same command's on a tiny session (one call) measured in the same run; and
// the peak RSS (max-rss-at-exit.cjs). Two conversations: results of 4 KB files, which ÆtherCodex ages
// out of the request as a session goes on (pi sends them whole), and results under 2 KB, which
// neither shortens.
//
// The baseline is pi (@mariozechner/pi-coding-agent, print mode, `--session FILE`) resuming the same
// conversation written as its own session file, on the same fixture server (OpenAI chat-completions
// wire). pi is installed from the npm registry into a folder outside the repository, and only when
// AETHER_BENCH_PI=1 asks for it; AETHER_BENCH_PI_DIR names a folder to install into and to reuse on
// the next run. It is never a dependency of the project.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RSS_HOOK = ['-r', path.join(ROOT, 'bench', 'max-rss-at-exit.cjs')];
const PI_PACKAGE = '@mariozechner/pi-coding-agent';
const PI_VERSION = '0.73.1';
const RUNS = Number(process.env.RESUME_RUNS ?? 3);
const SHAPE: LongRunShape = { steps: 40, parallel: 250, files: 400, fileBytes: 4000, searchEvery: 10 };

interface Resumed {
  /** From the spawn to the fixture's first request. */
  firstRequestMs: number;
  maxRss: number;
  /** The messages the first request carried (system prompt included), to show both sent the whole conversation. */
  messages: number;
  /** The first request's JSON body, in characters. */
  bodyBytes: number;
}

interface Agent {
  name: string;
  /** Makes a fresh copy of the session of `size` and returns the command that resumes it. */
  prepare(
    size: 'big' | 'tiny',
    baseURL: string,
    run: string,
  ): Promise<{ args: string[]; env: Record<string, string>; cwd: string }>;
}

/** One resume in a process of its own, the fixture answering its first request and any after it. */
async function resumeOnce(agent: Agent, size: 'big' | 'tiny', run: string): Promise<Resumed> {
  let first: number | undefined;
  let messages = 0;
  let bodyBytes = 0;
  const server = await startFixtureServer({
    // A model request's arrival, before its body is read: pi's body is larger (it ages no results).
    onArrival: ({ method }) => {
      if (method === 'POST') first ??= performance.now();
    },
    respond: (request) => {
      if (messages === 0) {
        messages = Array.isArray(request.body.messages) ? request.body.messages.length : -1;
        bodyBytes = JSON.stringify(request.body).length;
      }
      server.requests.length = 0;
      return parseFixtureStep({ text: ['Going on.'] });
    },
  });
  try {
    const { args, env, cwd } = await agent.prepare(size, server.baseURL, run);
    const start = performance.now();
    const child = spawn(
      process.execPath,
      [...RSS_HOOK, ...(process.env.RESUME_NODE_FLAGS?.split(' ') ?? []), ...args].filter(Boolean),
      {
        cwd,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-20_000)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    const rss = /max-rss-at-exit (\d+)/.exec(stderr);
    if (code !== 0 || !rss || first === undefined)
      throw new Error(
        `${agent.name} resuming the ${size} session exited ${code}${first === undefined ? ' before its first model request' : ''}: ${stderr.slice(-2000)} ${stdout.slice(-2000)}`,
      );
    return { firstRequestMs: first - start, maxRss: Number(rss[1]), messages, bodyBytes };
  } finally {
    await server.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Session templates, written once; each run resumes a fresh copy (a resume appends to its file). */
interface Templates {
  workspace: string;
  folder: string;
  big: Conversation;
  tiny: Conversation;
}

function aetherAgent(templates: Templates): Agent {
  const written = new Map<string, string>();
  return {
    name: 'aether',
    async prepare(size, baseURL, run) {
      const id = size === 'big' ? '20261207-000000-b16b16' : '20261207-000000-717171';
      const template = path.join(templates.folder, 'aether-templates');
      if (!written.has(size)) {
        const file = sessionFileOf(template, id);
        await writeAetherSession(templates[size], file, { id, workspace: templates.workspace, model: 'compat:bench' });
        written.set(size, file);
      }
      const sessions = path.join(templates.folder, `aether-${run}`);
      await mkdir(sessions, { recursive: true, mode: 0o700 });
      await copyFile(written.get(size)!, sessionFileOf(sessions, id));
      return {
        args: [
          path.join(ROOT, 'bin', 'aether.js'),
          'run',
          '--sessions',
          sessions,
          '--resume',
          id,
          '--model',
          `compat:${baseURL}#fixture`,
          'go on',
        ],
        env: { AETHER_CLI_SOURCES: '1', AETHERCODEX_SESSIONS: '' },
        cwd: templates.workspace,
      };
    },
  };
}

/** pi installed into a folder outside the repository (or the one AETHER_BENCH_PI_DIR names, reused). */
function installPi(): string {
  const dir = process.env.AETHER_BENCH_PI_DIR ?? path.join(os.tmpdir(), `aether-bench-pi-${PI_VERSION}`);
  const cli = path.join(dir, 'node_modules', ...PI_PACKAGE.split('/'), 'dist', 'cli.js');
  if (existsSync(cli)) return cli;
  console.log(`  installing ${PI_PACKAGE}@${PI_VERSION} from the npm registry into ${dir} …`);
  const installed = spawnSync(
    'npm',
    ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${PI_PACKAGE}@${PI_VERSION}`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (installed.status !== 0 || !existsSync(cli))
    throw new Error(`npm could not install ${PI_PACKAGE}@${PI_VERSION} into ${dir}: ${installed.stderr.slice(-2000)}`);
  return cli;
}

function piAgent(templates: Templates, cli: string): Agent {
  const written = new Map<string, string>();
  return {
    name: 'pi',
    async prepare(size, baseURL, run) {
      if (!written.has(size)) {
        const file = path.join(templates.folder, 'pi-templates', `${size}.jsonl`);
        await writePiSession(templates[size], file, {
          cwd: templates.workspace,
          provider: 'fixture',
          model: 'fixture',
        });
        written.set(size, file);
      }
      const home = path.join(templates.folder, `pi-${run}`);
      const agentDir = path.join(home, 'agent');
      await mkdir(path.join(home, 'sessions'), { recursive: true });
      await mkdir(agentDir, { recursive: true });
      const session = path.join(home, 'sessions', `${size}.jsonl`);
      await copyFile(written.get(size)!, session);
      // The fixture as an OpenAI-compatible provider (pi's docs/models.md), no auto-compaction
      // (ÆtherCodex does not compact for a model whose window it does not know either).
      await writeFile(
        path.join(agentDir, 'models.json'),
        JSON.stringify({
          providers: {
            fixture: {
              baseUrl: baseURL,
              api: 'openai-completions',
              apiKey: 'fixture',
              compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
              models: [{ id: 'fixture', contextWindow: 200_000_000 }],
            },
          },
        }),
      );
      await writeFile(path.join(agentDir, 'settings.json'), JSON.stringify({ compaction: { enabled: false } }));
      return {
        args: [
          cli,
          '-p',
          '--session',
          session,
          '--provider',
          'fixture',
          '--model',
          'fixture',
          '--no-extensions',
          '--no-skills',
          '--no-prompt-templates',
          '--no-themes',
          '--no-context-files',
          'go on',
        ],
        env: {
          PI_CODING_AGENT_DIR: agentDir,
          PI_OFFLINE: '1',
          PI_SKIP_VERSION_CHECK: '1',
          PI_TELEMETRY: '0',
          HOME: home,
        },
        cwd: templates.workspace,
      };
    },
  };
}

/** One conversation's rows: each agent resumes its big and its tiny session, RUNS times in turn. */
async function resumeRows(shape: LongRunShape, label: string, piCli: string | null): Promise<void> {
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-bench-resume-')));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-resume-sessions-'));
  try {
    await writeLongRunWorkspace(workspace, shape);
    const templates: Templates = {
      workspace,
      folder,
      big: await recordConversation(workspace, shape),
      tiny: await recordConversation(workspace, { ...shape, steps: 1, parallel: 1 }),
    };
    const agents = [aetherAgent(templates)];
    if (piCli !== null) agents.push(piAgent(templates, piCli));
    const results = new Map<string, { big: Resumed[]; tiny: Resumed[] }>();
    for (const agent of agents) results.set(agent.name, { big: [], tiny: [] });
    let runs = 0;
    for (let round = 0; round < RUNS; round += 1)
      for (const agent of agents)
        for (const size of ['tiny', 'big'] as const) {
          const resumed = await resumeOnce(agent, size, String((runs += 1)));
          results.get(agent.name)![size].push(resumed);
          await rm(path.join(folder, `${agent.name}-${runs}`), { recursive: true, force: true });
        }
    const aetherFile = sessionFileOf(path.join(folder, 'aether-templates'), '20261207-000000-b16b16');
    console.log(
      `resume a ${shape.steps * shape.parallel}-call session (${shape.steps} steps of ${shape.parallel} parallel reads and searches, ${label}; ` +
        `log ${mib((await stat(aetherFile)).size)}) with "go on", fixture model over HTTP, a process each, median of ${RUNS}`,
    );
    const figures = (name: string) => {
      const { big, tiny } = results.get(name)!;
      const first = median(big.map((entry) => entry.firstRequestMs));
      const bare = median(tiny.map((entry) => entry.firstRequestMs));
      return {
        messages: big[0]?.messages ?? 0,
        bodyBytes: big[0]?.bodyBytes ?? 0,
        first,
        bare,
        own: first - bare,
        rss: median(big.map((entry) => entry.maxRss)),
        tinyRss: median(tiny.map((entry) => entry.maxRss)),
      };
    };
    const ours = figures('aether');
    const line = (name: string, figure: ReturnType<typeof figures>) =>
      `  ${name.padEnd(8)} first request ${(figure.first / 1000).toFixed(2)} s; own work ${(figure.own / 1000).toFixed(2)} s ` +
      `(a one-call session: ${(figure.bare / 1000).toFixed(2)} s); peak RSS ${mib(figure.rss)} (one-call session: ${mib(figure.tinyRss)}); ` +
      `the request: ${figure.messages} messages, ${mib(figure.bodyBytes)}`;
    console.log(line('aether', ours));
    if (!results.has('pi')) return;
    const pi = figures('pi');
    const piFile = path.join(folder, 'pi-templates', 'big.jsonl');
    console.log(`${line('pi', pi)}; its session file ${mib((await stat(piFile)).size)}`);
    console.log(
      `  ratios against pi: first request ${(ours.first / pi.first).toFixed(2)}×, own work ${(ours.own / pi.own).toFixed(2)}× ` +
        `(target ≤ 1), peak RSS ${(ours.rss / pi.rss).toFixed(2)}× (target ≤ 1)`,
    );
  } finally {
    await rm(workspace, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const piCli = process.env.AETHER_BENCH_PI === '1' ? installPi() : null;
  // Results of 4 KB files: ÆtherCodex ages the older ones out of the request (a stub each), pi sends
  // every one whole. Results under 2 KB: neither shortens any, both send the same conversation.
  // RESUME_FILE_BYTES=400 runs that conversation alone.
  const only = Number(process.env.RESUME_FILE_BYTES ?? 0);
  if (only !== 400)
    await resumeRows({ ...SHAPE, fileBytes: 4000 }, 'read_file of 4 KB files, older results aged by ÆtherCodex', piCli);
  if (only !== 4000) await resumeRows({ ...SHAPE, fileBytes: 400 }, 'read_file of 400-byte files, nothing aged', piCli);
  if (piCli === null)
    console.log(
      `  pi's figures, the baseline: AETHER_BENCH_PI=1 npm run bench -- resume (installs ${PI_PACKAGE}@${PI_VERSION} outside the repository; AETHER_BENCH_PI_DIR=DIR keeps it for the next run)`,
    );
}

if (import.meta.main) await run();
