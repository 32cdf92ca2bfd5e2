import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { CompactionEvent, StatusEvent } from '../../protocol/events.ts';
import { AgentSession } from '../../main/agent/agent-session.ts';
import { COMPACTION_SYSTEM } from '../../main/agent/compaction-prompt.ts';
import { modelInfo } from '../../main/model/model-info.ts';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../../main/model/fixture-server.ts';
import { parseFixtureStep, type FixtureStep, type FixtureStepInput } from '../../main/model/fixture-script.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { ALLOW_ALL } from '../../main/tools/permission-gate.ts';
import { conversationOf, modelFor, ToolKit } from '../agent-kit.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// A day's session in small: a model with a 16 000-token window reads 30 notes one call at a time,
// the context is compacted by itself on the way, the task is finished, and a copy of the session
// resumed from its file sends the model byte-identical requests to the ones the original sends.

// Wide enough that one note (about 1 300 tokens) cannot carry a step from below the threshold
// (85 %) past the window, beside the system prompt and the session's own tools.
const WINDOW = 16_000;
const NOTES = 30;
const SUMMARY = '## Goal and open tasks\nRead every note, then write digest.txt.\n## Files touched\nnote-*.txt read.';

const temp = useTempWorkspace('aether-compaction-');
const servers: FixtureServer[] = [];
const sessions: AgentSession[] = [];

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const server of servers.splice(0)) await server.close();
});

function isSummaryRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.body['system'] ?? '').includes(COMPACTION_SYSTEM.slice(0, 40));
}

/** The task's script: one read per step, then the digest, then the answer; summary requests get the summary. */
function taskSteps(): FixtureStepInput[] {
  const reads: FixtureStepInput[] = Array.from({ length: NOTES }, (_, index) => ({
    text: [`Reading note ${index + 1}.`],
    tool_calls: [{ id: `read-${index + 1}`, name: 'read_note', args: { path: `note-${index + 1}.txt` } }],
  }));
  return [
    ...reads,
    {
      tool_calls: [{ id: 'digest', name: 'append_line', args: { path: 'digest.txt', line: `${NOTES} notes read` } }],
    },
    { text: ['All 30 notes are read and digest.txt is written.'] },
    { text: ['Nothing else is open.'] },
  ];
}

async function fixture(steps: FixtureStepInput[]): Promise<FixtureServer> {
  const queue: FixtureStep[] = steps.map(parseFixtureStep);
  const started = await startFixtureServer({
    respond: (request) => (isSummaryRequest(request) ? parseFixtureStep({ text: [SUMMARY] }) : queue.shift()),
  });
  servers.push(started);
  return started;
}

async function open(server: FixtureServer, sessionsRoot: string, id?: string) {
  const recorder = new StatusRecorder();
  const options = {
    root: sessionsRoot,
    workspace: temp.workspace,
    model: modelFor('anthropic', server),
    sink: recorder,
    tools: new ToolKit().tools,
    rules: ALLOW_ALL,
    // The settings' per-model override, as the panel and the CLI pass it.
    modelInfo: (id: string) => modelInfo(id, { [id]: { context_window: WINDOW } }),
  };
  const session = id ? await AgentSession.resume({ ...options, id }) : await AgentSession.start(options);
  sessions.push(session);
  return { session, recorder };
}

/** About 1 300 tokens of words that do not repeat, so each note costs what a real file would. */
function noteWords(seed: number): string {
  return Array.from({ length: 520 }, (_, index) => ((seed * 7919 + index * 104_729) % 1_000_003).toString(36)).join(
    ' ',
  );
}

const ofType = <T extends StatusEvent['type']>(events: StatusEvent[], type: T) =>
  events.filter((event): event is Extract<StatusEvent, { type: T }> => event.type === type);

// About 35 model requests over HTTP, each estimated with the tokenizer: more than the default
// timeout on a loaded machine.
it(
  'compacts a long session by itself, finishes the task, and a resumed copy sends byte-identical requests',
  { timeout: 60_000 },
  async () => {
    for (let index = 1; index <= NOTES; index += 1) {
      await writeFile(path.join(temp.workspace, `note-${index}.txt`), `Note ${index}: ${noteWords(index)}\n`);
    }
    const server = await fixture(taskSteps());
    const { session, recorder } = await open(server, temp.sessionsRoot);
    session.send('Read note-1.txt to note-30.txt one by one, then write digest.txt.');
    expect(await session.idle()).toMatchObject({ status: 'completed' });

    const compactions: CompactionEvent[] = ofType(recorder.events, 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    for (const compaction of compactions) {
      expect(compaction).toMatchObject({ trigger: 'auto', summary: SUMMARY });
      expect(compaction.tokens_before).toBeGreaterThan(WINDOW * 0.85);
      expect(compaction.tokens_after).toBeLessThan(compaction.tokens_before / 2);
    }
    expect(ofType(recorder.events, 'compaction_failed')).toEqual([]);
    expect(ofType(recorder.events, 'tool_completed')).toHaveLength(NOTES + 1);
    expect(await readFile(path.join(temp.workspace, 'digest.txt'), 'utf8')).toBe('30 notes read\n');
    // Compaction came before the window was passed, and the last request starts from the summary.
    for (const compaction of compactions) expect(compaction.tokens_before).toBeLessThanOrEqual(WINDOW);
    const taskRequests = server.requests.filter((request) => !isSummaryRequest(request));
    expect(taskRequests).toHaveLength(NOTES + 2);
    const last = conversationOf(taskRequests.at(-1)!.body);
    expect(last[0]).toMatchObject({ kind: 'user', text: expect.stringContaining(SUMMARY) });
    expect(last.some((entry) => entry.kind === 'tool' && entry.id === 'read-1')).toBe(false);

    // A copy of the session folder, resumed from its file, against its own fixture server.
    const copyRoot = path.join(temp.root, 'sessions-copy');
    await cp(temp.sessionsRoot, copyRoot, { recursive: true, filter: (source) => !source.endsWith('.lock') });
    const copyServer = await fixture([{ text: ['Nothing else is open.'] }]);
    const { session: copy } = await open(copyServer, copyRoot, session.id);
    expect(copy.context()).toEqual(session.context());

    const before = server.requests.length;
    session.send('Is anything left?');
    copy.send('Is anything left?');
    await Promise.all([session.idle(), copy.idle()]);
    const original = server.requests.slice(before).map((request) => JSON.stringify(request.body));
    const resumed = copyServer.requests.map((request) => JSON.stringify(request.body));
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed).toEqual(original);
  },
);
