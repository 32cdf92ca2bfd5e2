import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { AgentEcho } from '../../protocol/agents.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { childOfCall, childSessionEvents } from '../../main/agent/agents/child-sessions.ts';
import { openAgentSession, type OpenedAgentSession } from '../../main/agent/open-agent-session.ts';
import { parseFixtureStep } from '../../main/model/fixture-script.ts';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../../main/model/fixture-server.ts';
import { openSession } from '../../main/session/catalog.ts';
import { readSessionFile } from '../../main/session/replay.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { modelFor } from '../agent-kit.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// A host killed (SIGKILL) while three children run side by side: two wait on a question about a
// write, one in the middle of its model's answer. Reopening the parent closes what each file left
// open — the parent's three agent calls, each child's open call, question and turn — keeps every
// event that was written, and the parent goes on.

const host = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'agents-host.ts');
const temp = useTempWorkspace('aether-agent-crash-');
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const CHILDREN = ['alpha', 'beta', 'gamma'] as const;
const MESSAGE = 'Crash the children.';

/** Each conversation's next step, from what its request holds: the parent's, or one child's. */
function respond(gammaStalled: () => void) {
  return (request: RecordedRequest) => {
    const messages = JSON.stringify(request.body['messages']);
    const results = messages.split('"tool_result"').length - 1;
    if (messages.includes(MESSAGE)) {
      if (results > 0) return parseFixtureStep({ text: ['Resumed after the crash.'] });
      return parseFixtureStep({
        tool_calls: CHILDREN.map((name) => ({
          id: `agent-${name}`,
          name: 'agent',
          args: { task: `Work on ${name} (task crash-${name}).`, agent: 'general' },
        })),
      });
    }
    const child = CHILDREN.find((name) => messages.includes(`task crash-${name}`));
    if (!child) return undefined;
    if (results === 0) return parseFixtureStep({ tool_calls: [{ id: 'look', name: 'list_dir', args: { path: '.' } }] });
    if (child !== 'gamma')
      return parseFixtureStep({
        tool_calls: [{ id: 'write', name: 'write_file', args: { path: `${child}.txt`, content: `${child}\n` } }],
      });
    gammaStalled();
    return parseFixtureStep({
      text: ['Halfway there', ' never sent'],
      fault: { type: 'stall', after_text: 'Halfway' },
    });
  };
}

function types(events: readonly StatusEvent[]): string[] {
  return events.map((event) => event.type);
}

it('repairs the parent and each child after a kill during parallel children, losing nothing, and resumes', async () => {
  let stalled = (): void => undefined;
  const gamma = new Promise<void>((resolve) => (stalled = resolve));
  const server: FixtureServer = await startFixtureServer({ respond: respond(() => stalled()) });
  cleanup.push(() => server.close());

  const proc = spawn(process.execPath, [host, temp.sessionsRoot, temp.workspace, server.baseURL, MESSAGE], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  proc.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const asked = new Set<string>();
  let id = '';
  const questions = new Promise<void>((resolve, reject) => {
    let buffered = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('{')) id = (JSON.parse(line) as { id: string }).id;
        if (line.startsWith('asked ')) asked.add(line.slice('asked '.length));
      }
      if (asked.size === 2) resolve();
    });
    proc.once('exit', () => reject(new Error(`The host ended before its children waited: ${errors}`)));
  });
  await Promise.all([questions, gamma]);
  expect([...asked].sort()).toEqual(['agent-alpha', 'agent-beta']);
  proc.kill('SIGKILL');
  await exited;

  // What each child wrote before the kill, read as it was left (nothing repaired yet).
  const childFolder = path.join(temp.sessionsRoot, id, 'agents');
  const ids = (await readdir(childFolder)).filter((name) => name.endsWith('.jsonl')).map((name) => name.slice(0, -6));
  expect(ids).toHaveLength(3);
  const parentBefore = (await openSession(temp.sessionsRoot, id, { live: true })).opened.events;
  const before = new Map<string, StatusEvent[]>();
  for (const child of ids) before.set(child, await childSessionEvents(temp.sessionsRoot, id, child));

  const recorder = new StatusRecorder();
  const reopened: OpenedAgentSession = await openAgentSession({
    workspace: temp.workspace,
    sessionsRoot: temp.sessionsRoot,
    model: modelFor('anthropic', server),
    sink: recorder,
    permissions: { mode: 'ask' },
    agents: {},
    resume: id,
  });
  cleanup.push(() => reopened.close());

  // The parent: its three agent calls closed as interrupted, its turn failed.
  const parent = (await readSessionFile(reopened.session.file)).events;
  expect(parent.slice(0, parentBefore.length)).toEqual(parentBefore);
  expect(types(parentBefore)).toEqual(expect.arrayContaining(['user_message', 'assistant_message', 'tool_started']));
  const agentEnds = parent.filter((event) => event.type === 'tool_completed' && event.name === 'agent');
  expect(
    agentEnds.map((event) => (event.type === 'tool_completed' ? [event.call_id, event.is_error] : [])).sort(),
  ).toEqual([
    ['agent-alpha', true],
    ['agent-beta', true],
    ['agent-gamma', true],
  ]);
  expect(parent.some((event) => event.type === 'turn_failed')).toBe(true);
  // The children's questions were the parent's to answer: refused by its repair.
  const refused = parent.flatMap((event) =>
    event.type === 'tool_approval_resolved' && event.answer === 'deny' ? [event.call_id] : [],
  );
  expect(refused.sort()).toEqual(['agent-alpha/write', 'agent-beta/write']);

  // Each child: every event it had written is still there, in order, then what closes what it left open.
  for (const child of ids) {
    const after = await childSessionEvents(temp.sessionsRoot, id, child);
    const written = before.get(child)!;
    expect(after.slice(0, written.length)).toEqual(written);
    const repairs = after.slice(written.length);
    expect(types(written)).toContain('tool_completed');
    expect(types(repairs).at(-1)).toBe('turn_failed');
    const header = (await readSessionFile(path.join(childFolder, `${child}.jsonl`))).header;
    const name = header.agent_of?.call_id;
    if (name === 'agent-gamma') {
      // Stopped mid-answer: no call was open, only its turn.
      expect(types(repairs)).toEqual(['turn_failed']);
    } else {
      // Waiting on its question (asked in the parent's view): its write closed as interrupted, never written.
      expect(types(repairs)).toEqual(['tool_completed', 'turn_failed']);
      const closed = repairs[0];
      expect(closed?.type === 'tool_completed' && closed.name === 'write_file' && closed.is_error).toBe(true);
    }
    // A second reopen finds nothing left to repair.
    const again = await readSessionFile(path.join(childFolder, `${child}.jsonl`));
    expect(again.repairs).toEqual([]);
  }
  expect((await readdir(childFolder)).filter((name) => name.endsWith('.lock'))).toEqual([]);
  // The interrupted cards have no echo naming their child: the panel finds each by its call.
  for (const name of CHILDREN) {
    const child = await childOfCall(temp.sessionsRoot, id, `agent-${name}`);
    expect((await readSessionFile(path.join(childFolder, `${child}.jsonl`))).header.agent_of?.call_id).toBe(
      `agent-${name}`,
    );
  }
  await expect(childOfCall(temp.sessionsRoot, id, 'agent-none')).rejects.toThrow('started no agent session');

  // The parent goes on: its model reads the interrupted calls, and the turn ends.
  expect(reopened.session.send('Go on.').ok).toBe(true);
  expect((await reopened.session.idle())?.status).toBe('completed');
  const last = server.requests.at(-1)!;
  expect(JSON.stringify(last.body['messages'])).toContain('Go on.');
  expect(
    recorder.events.some((event) => event.type === 'assistant_message' && event.text === 'Resumed after the crash.'),
  ).toBe(true);
  // The interrupted agent cards stay plain: they hold no echo of a child that never answered.
  expect(
    agentEnds.every(
      (event) => event.type === 'tool_completed' && (event.result as Partial<AgentEcho>).kind !== 'agent',
    ),
  ).toBe(true);
}, 60_000);
