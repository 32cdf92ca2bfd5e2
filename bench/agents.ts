import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StatusEvent } from '../protocol/events.ts';
import { openAgentSession } from '../main/agent/open-agent-session.ts';
import type { FixtureScriptInput } from '../main/model/fixture-script.ts';
import { startFixtureServer, type FixtureServer } from '../main/model/fixture-server.ts';
import { modelFor } from '../test/agent-kit.ts';
import { fmt } from './measure.ts';

// Agents that delegate, on the fixture model over real HTTP:
// - the overhead of a child session: from the `agent` call's start to the child's first model
//   request, against a session a host opens through the same door, from its open to its first
//   request (target: ≤ 20 ms before the child's first request);
// - three children in one step against one child, each taking two model steps on a fixture that
//   waits a fixed time before every answer: in parallel, so near 1×;
// - the same overhead for a child that may write (`general`), whose parent records the workspace
//   before it opens (the first record of a new session's store: every file read), against a
//   read-only `explore` child, in a workspace of 1 000 files.

const RUNS = 9;
const LATENCY_MS = 150;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

interface Rig {
  server: FixtureServer;
  /** performance.now() when each request arrived, by a marker its user messages hold. */
  arrivals: { marker: string; at: number }[];
  folder: string;
}

async function rig(): Promise<Rig> {
  const arrivals: { marker: string; at: number }[] = [];
  const server = await startFixtureServer();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-agents-'));
  const at = server.requests;
  // Each request's arrival, as the server records it (the recorded list grows as requests come).
  const push = at.push.bind(at);
  at.push = (...requests) => {
    for (const request of requests) {
      const text = JSON.stringify(request.body['messages'] ?? '');
      const marker = /task ([\w-]+)/.exec(text)?.[1] ?? 'parent';
      arrivals.push({ marker, at: performance.now() });
    }
    return push(...requests);
  };
  return { server, arrivals, folder };
}

async function openParent(rigged: Rig, run: number, workspace = rigged.folder) {
  const events: { event: StatusEvent; at: number }[] = [];
  const opened = await openAgentSession({
    workspace,
    sessionsRoot: path.join(rigged.folder, `sessions-${run}`),
    model: modelFor('anthropic', rigged.server),
    sink: { emit: (event) => void events.push({ event, at: performance.now() }) },
    permissions: { mode: 'auto' },
    agents: { parallel: 3 },
  });
  return { opened, events };
}

function script(children: number, latency: number, steps: number, agent = 'explore'): FixtureScriptInput {
  const names = Array.from({ length: children }, (_, index) => `child-${index}`);
  const childSteps = [
    ...Array.from({ length: steps - 1 }, () => ({ tool_calls: [{ name: 'list_dir', args: { path: '.' } }] })),
    { text: ['Done.'] },
  ];
  return {
    latency_ms: latency,
    steps: [
      {
        tool_calls: names.map((name) => ({ name: 'agent', args: { agent, task: `List (task ${name}).` } })),
      },
      { text: ['All done.'] },
    ],
    streams: names.map((name) => ({ match: `task ${name}`, steps: childSteps })),
  };
}

/** The child's first request after its call started, and a host's first request after its open. */
async function openOverhead(
  rigged: Rig,
  options: { agent?: string; workspace?: string; first?: number } = {},
): Promise<{ child: number; host: number }> {
  const child: number[] = [];
  const host: number[] = [];
  for (let run = options.first ?? 0; run < (options.first ?? 0) + RUNS; run += 1) {
    rigged.server.load(script(1, 0, 1, options.agent));
    rigged.arrivals.length = 0;
    const hostStart = performance.now();
    const { opened, events } = await openParent(rigged, run, options.workspace);
    opened.session.send('Go.');
    await opened.session.idle();
    const started = events.find(({ event }) => event.type === 'tool_started' && event.name === 'agent')?.at ?? NaN;
    const parentFirst = rigged.arrivals.find((arrival) => arrival.marker === 'parent')?.at ?? NaN;
    const childFirst = rigged.arrivals.find((arrival) => arrival.marker === 'child-0')?.at ?? NaN;
    child.push(childFirst - started);
    host.push(parentFirst - hostStart);
    await opened.close();
  }
  return { child: median(child), host: median(host) };
}

/** The parent's step of agent calls: from the first call's start to the last one's end. */
async function stepWall(rigged: Rig, children: number): Promise<number> {
  const walls: number[] = [];
  for (let run = 0; run < Math.ceil(RUNS / 2); run += 1) {
    rigged.server.load(script(children, LATENCY_MS, 2));
    const { opened, events } = await openParent(rigged, 1000 + children * 100 + run);
    opened.session.send('Go.');
    await opened.session.idle();
    const agentEvents = events.filter(
      ({ event }) => (event.type === 'tool_started' || event.type === 'tool_completed') && event.name === 'agent',
    );
    walls.push((agentEvents.at(-1)?.at ?? NaN) - (agentEvents[0]?.at ?? NaN));
    await opened.close();
  }
  return median(walls);
}

export async function run(): Promise<void> {
  const rigged = await rig();
  try {
    const overhead = await openOverhead(rigged);
    console.log(
      `agents: a child's first request after its agent call started  ${fmt(overhead.child).padStart(10)}   a host's session, open to first request: ${fmt(overhead.host).padStart(10)}   ratio ${(overhead.child / overhead.host).toPrecision(3)}× (median of ${RUNS}; target ≤ 20 ms)`,
    );
    const workspace = path.join(rigged.folder, 'workspace');
    for (let folder = 0; folder < 50; folder += 1) {
      await mkdir(path.join(workspace, `folder-${folder}`), { recursive: true });
      for (let file = 0; file < 20; file += 1)
        await writeFile(
          path.join(workspace, `folder-${folder}`, `file-${file}.ts`),
          `export const n = ${file};\n`.repeat(40),
        );
    }
    const reading = await openOverhead(rigged, { agent: 'explore', workspace, first: 100 });
    const writing = await openOverhead(rigged, { agent: 'general', workspace, first: 200 });
    console.log(
      `agents: a general child's first request after its call started (its parent records 1 000 files first)  ${fmt(writing.child).padStart(10)}   an explore child's (no record): ${fmt(reading.child).padStart(10)}   ratio ${(writing.child / reading.child).toPrecision(3)}× (median of ${RUNS})`,
    );
    const one = await stepWall(rigged, 1);
    const three = await stepWall(rigged, 3);
    console.log(
      `agents: three children in one step, 2 model steps each, ${LATENCY_MS} ms a request  ${fmt(three).padStart(10)}   one child: ${fmt(one).padStart(10)}   ratio ${(three / one).toPrecision(3)}×`,
    );
  } finally {
    await rigged.server.close();
    await rm(rigged.folder, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
