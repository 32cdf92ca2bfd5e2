import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { AgentSession } from '../../main/agent/agent-session.ts';
import { COMPACTION_SYSTEM } from '../../main/agent/compaction-prompt.ts';
import { modelInfo } from '../../main/model/model-info.ts';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../../main/model/fixture-server.ts';
import { parseFixtureStep, type FixtureStep, type FixtureStepInput } from '../../main/model/fixture-script.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { builtinTools } from '../../main/tools/index.ts';
import { ALLOW_ALL } from '../../main/tools/permission-gate.ts';
import { modelFor } from '../agent-kit.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// Compaction by hand, as a person meets it: four turns, each reading a file, with the built-in
// tools (whose definitions take most of a small window), the fixture model reporting its own
// count of each request, and the meter high but short of the automatic threshold. /compact then
// summarises the turns older than the kept tail, measured with the meter's own count; a context
// with nothing older says why in words about what it is made of.

const temp = useTempWorkspace('aether-compact-hand-');
const servers: FixtureServer[] = [];
const sessions: AgentSession[] = [];

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const server of servers.splice(0)) await server.close();
});

const SUMMARY = '## Goal and open tasks\nRead the four notes.\n## Files touched\nnote-1.md to note-4.md: read.';

const isSummaryRequest = (request: RecordedRequest): boolean =>
  JSON.stringify(request.body['system'] ?? '').includes(COMPACTION_SYSTEM.slice(0, 40));

/** About 400 tokens of words that do not repeat, as a real file's would not. */
function noteWords(seed: number): string {
  return Array.from({ length: 160 }, (_, index) => ((seed * 7919 + index * 104_729) % 1_000_003).toString(36)).join(
    ' ',
  );
}

/** Each turn reads its note, then answers. */
const readingTurns = (): FixtureStepInput[] =>
  [1, 2, 3, 4].flatMap((note) => [
    { tool_calls: [{ id: `read-${note}`, name: 'read_file', args: { path: `note-${note}.md` } }] },
    { text: [`Note ${note} is read.`] },
  ]);

/** Plays `queue`, a summary for a summary request; every step reports usage as a provider does: its own count. */
async function fixture(queue: FixtureStepInput[]): Promise<FixtureServer> {
  const counted = (request: RecordedRequest) => ({
    // About a third more than the tokenizer here estimates, as a provider with another tokenizer counts.
    input_tokens: Math.round(JSON.stringify(request.body).length / 2.7),
    output_tokens: 20,
  });
  const server = await startFixtureServer({
    respond: (request): FixtureStep | undefined => {
      const step = isSummaryRequest(request) ? { text: [SUMMARY] } : queue.shift();
      return step ? parseFixtureStep({ ...step, usage: counted(request) }) : undefined;
    },
  });
  servers.push(server);
  return server;
}

/** A session with the built-in tools whose window the test sets, and no automatic compaction. */
async function session(server: FixtureServer, window: { tokens: number }) {
  const recorder = new StatusRecorder();
  const opened = await AgentSession.start({
    root: temp.sessionsRoot,
    workspace: temp.workspace,
    model: modelFor('anthropic', server),
    sink: recorder,
    tools: builtinTools(),
    rules: ALLOW_ALL,
    modelInfo: (id) => modelInfo(id, { [id]: { context_window: window.tokens } }),
    compactAt: () => null,
  });
  sessions.push(opened);
  return { session: opened, recorder };
}

const lastOf = <T extends StatusEvent['type']>(events: StatusEvent[], type: T) =>
  events.findLast((event): event is Extract<StatusEvent, { type: T }> => event.type === type);

it(
  'compacts by hand at 84 % after four turns of large results, by the count the meter shows',
  { timeout: 60_000 },
  async () => {
    for (const note of [1, 2, 3, 4])
      await writeFile(path.join(temp.workspace, `note-${note}.md`), `Note ${note}: ${noteWords(note)}\n`);
    const server = await fixture(readingTurns());
    const window = { tokens: 1_000_000 };
    const { session: live, recorder } = await session(server, window);
    for (const note of [1, 2, 3, 4]) {
      live.send(`Read note-${note}.md`);
      expect(await live.idle()).toMatchObject({ status: 'completed' });
    }
    // The window the person's model has: the meter's last figure is 84 % of it.
    const meter = lastOf(recorder.events, 'step_usage')!.context_tokens;
    window.tokens = Math.round(meter / 0.84);

    const result = await live.compact();
    expect(result).toMatchObject({ ok: true, value: { type: 'compaction', trigger: 'manual', summary: SUMMARY } });
    const compaction = result.ok && result.value.type === 'compaction' ? result.value : null;
    // Measured as the meter measures: its figure, and what compaction starts from, agree.
    expect(Math.abs(compaction!.tokens_before - meter) / meter).toBeLessThan(0.05);
    expect(compaction!.tokens_after).toBeLessThan(compaction!.tokens_before);
    // The older turns are summarised; the last one's read is kept as it was.
    expect(compaction!.kept_call_ids).toEqual(['read-4']);
  },
);

it('says plainly why a context holding only the first exchange is not compacted', async () => {
  const server = await fixture([{ text: ['Hello; what shall we do?'] }]);
  const { session: live } = await session(server, { tokens: 12_000 });
  live.send('Hello');
  await live.idle();
  const result = await live.compact();
  expect(result).toMatchObject({ ok: true, value: { type: 'compaction_failed', trigger: 'manual' } });
  const error = result.ok && result.value.type === 'compaction_failed' ? result.value.error : '';
  expect(error).toMatch(/^Nothing to compact yet: the conversation takes about [\d,]+ tokens/);
  // Most of this context is what no compaction shortens, and the message says what to do about it.
  expect(error).toContain("the system prompt and the tools' definitions");
  expect(error).toContain('turn off MCP servers this session does not need, or pick a model with a larger window');
});
