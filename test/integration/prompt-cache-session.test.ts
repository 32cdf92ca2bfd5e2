import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentSession } from '../../main/agent/agent-session.ts';
import { COMPACTION_SYSTEM } from '../../main/agent/compaction-prompt.ts';
import type { PrefixChange } from '../../main/agent/prompt-cache.ts';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../../main/model/fixture-server.ts';
import { parseFixtureStep, type FixtureStep } from '../../main/model/fixture-script.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { ALLOW_ALL } from '../../main/tools/permission-gate.ts';
import { readPart } from '../read-part-tool.ts';
import { modelFor, WIRES, type Wire } from '../agent-kit.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// A 40-step session against the fixture's honest prompt cache: four turns of ten steps, each step
// reading a 6 KiB result that ages later, and one compaction by hand. Every request repeats the
// one before it byte for byte — tools, system prompt and every message it sent — except at the
// moments the session names (the aged part grew, the context was compacted); and a copy resumed
// from the session's file sends the same bytes as the original.

const TURNS = 4;
const STEPS_PER_TURN = 10;
const SUMMARY = '## Goal and open tasks\nRead the parts one by one.';

const temp = useTempWorkspace('aether-prompt-cache-');
const servers: FixtureServer[] = [];
const sessions: AgentSession[] = [];

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const server of servers.splice(0)) await server.close();
});

function isSummaryRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.body['system'] ?? request.body['messages'] ?? '').includes(
    COMPACTION_SYSTEM.slice(0, 40),
  );
}

/** Nine reads, then the answer, per turn; a summary request gets the summary. */
async function fixture(): Promise<FixtureServer> {
  let steps = 0;
  const server = await startFixtureServer({
    promptCache: true,
    respond: (request): FixtureStep => {
      if (isSummaryRequest(request)) return parseFixtureStep({ text: [SUMMARY] });
      steps += 1;
      if (steps > TURNS * STEPS_PER_TURN) return parseFixtureStep({ text: ['Nothing more to read.'] });
      if (steps % STEPS_PER_TURN === 0) return parseFixtureStep({ text: [`Done with these parts (${steps}).`] });
      return parseFixtureStep({
        text: [`Reading part ${steps}.`],
        tool_calls: [{ id: `read-${steps}`, name: 'read_part', args: { part: steps } }],
      });
    },
  });
  servers.push(server);
  return server;
}

async function open(wire: Wire, server: FixtureServer, root: string, id?: string): Promise<AgentSession> {
  const options = {
    root,
    workspace: temp.workspace,
    model: modelFor(wire, server),
    sink: new StatusRecorder(),
    tools: [readPart],
    rules: ALLOW_ALL,
  };
  const session = id ? await AgentSession.resume({ ...options, id }) : await AgentSession.start(options);
  sessions.push(session);
  return session;
}

/** The part of a request body the prompt cache sees, without the markers that only ask for caching. */
function cached(body: Record<string, unknown>): { head: string; messages: string[] } {
  const strip = (value: unknown) =>
    JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner));
  const messages = (body['messages'] ?? []) as unknown[];
  return { head: strip([body['tools'], body['system']]), messages: messages.map(strip) };
}

/** Whether `next` repeats all that `previous` sent, byte for byte, before what it adds. */
function repeats(previous: RecordedRequest, next: RecordedRequest): boolean {
  const before = cached(previous.body);
  const after = cached(next.body);
  return before.head === after.head && before.messages.every((message, index) => after.messages[index] === message);
}

describe.each(WIRES)('%s wire', (wire) => {
  it(
    'keeps each request a byte-identical extension of the previous one except at named moments, and resumes with the same bytes',
    { timeout: 60_000 },
    async () => {
      const server = await fixture();
      const session = await open(wire, server, temp.sessionsRoot);
      for (let turn = 1; turn <= TURNS; turn += 1) {
        if (turn === 3) expect(await session.compact()).toMatchObject({ ok: true });
        session.send(`Read the next ${STEPS_PER_TURN - 1} parts.`);
        expect(await session.idle()).toMatchObject({ status: 'completed' });
      }
      const requests = server.requests.filter((request) => !isSummaryRequest(request));
      expect(requests).toHaveLength(TURNS * STEPS_PER_TURN);

      // The watch saw the same requests (1-based) and named each change of the prefix.
      const changes: PrefixChange[] = session.promptCache.changes;
      const changed = requests.flatMap((request, index) =>
        index > 0 && !repeats(requests[index - 1]!, request) ? [index + 1] : [],
      );
      expect(changes.map((change) => change.request)).toEqual(changed);
      expect(changes.filter((change) => change.cause === 'compaction').map((change) => change.request)).toEqual([
        2 * STEPS_PER_TURN + 1,
      ]);
      const aging = changes.filter((change) => change.cause === 'aging');
      expect(aging.length).toBeGreaterThanOrEqual(2);
      expect(aging.length + 1).toBe(changes.length);
      // Rare moments: most requests repeat the previous one whole.
      expect(changed.length).toBeLessThanOrEqual(6);

      // The fixture's cache: most input was read from it.
      const input = requests.reduce((sum, request) => sum + (request.cache?.input_tokens ?? 0), 0);
      const read = requests.reduce((sum, request) => sum + (request.cache?.cache_read_tokens ?? 0), 0);
      expect(read / input).toBeGreaterThan(0.7);

      // A copy resumed from its file sends what the original sends, and reads its prefix from the cache.
      const copyRoot = path.join(temp.root, `sessions-copy-${wire}`);
      await cp(temp.sessionsRoot, copyRoot, { recursive: true, filter: (source) => !source.endsWith('.lock') });
      const copy = await open(wire, server, copyRoot, session.id);
      const before = server.requests.length;
      session.send('One more part, please.');
      await session.idle();
      const original = server.requests.slice(before);
      copy.send('One more part, please.');
      await copy.idle();
      const resumed = server.requests.slice(before + original.length);
      expect(resumed.map((request) => JSON.stringify(request.body))).toEqual(
        original.map((request) => JSON.stringify(request.body)),
      );
      expect(repeats(requests.at(-1)!, resumed[0]!)).toBe(true);
      expect(resumed[0]!.cache!.cache_read_tokens).toBeGreaterThan(resumed[0]!.cache!.input_tokens * 0.8);
    },
  );
});
