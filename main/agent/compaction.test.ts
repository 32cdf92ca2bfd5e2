import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import type { ChatMessage } from '../model/types.ts';
import { REFERRED_MIN_CHARS } from '../model/request-texts.ts';
import { rebuildContext } from '../session/context.ts';
import { StatusRecorder, type StatusSink } from '../status/sink.ts';
import { modelFor } from '../../test/agent-kit.ts';
import { ageToolResults, agedStub, DEFAULT_AGING } from './aging.ts';
import { compactContext, compactionDue, planCompaction } from './compaction.ts';
import { fixedBudget } from './context-budget.ts';

// Compaction's failure paths and the aging of old tool results, against the fixture model over
// real HTTP. A failure leaves the context exactly as it was; aging is a pure function of the messages.

const servers: FixtureServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function model(script: FixtureScriptInput) {
  const server = await startFixtureServer({ script });
  servers.push(server);
  return { server, adapter: modelFor('anthropic', server) };
}

const BIG = 'x'.repeat(5000);

/** A turn of `steps` read calls, each result `content`. */
function conversation(steps: number, content = BIG): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Read every file.' }];
  for (let index = 1; index <= steps; index += 1) {
    messages.push({
      role: 'assistant',
      content: `Reading ${index}.`,
      tool_calls: [{ call_id: `c${index}`, name: 'read_file', args: { path: `f${index}.txt` } }],
    });
    messages.push({ role: 'tool', call_id: `c${index}`, name: 'read_file', content, is_error: false });
  }
  return messages;
}

describe('ageToolResults', () => {
  /** Aging at every step, the block left out: which messages age. */
  const everyStep = { ...DEFAULT_AGING, blockChars: 0 };

  it('stubs long results older than the last four steps and keeps the recent and the short ones whole', () => {
    const messages = [...conversation(6), ...conversation(1, 'short').slice(1)];
    const aged = ageToolResults(messages, everyStep);
    const tools = aged.filter((message) => message.role === 'tool');
    // Steps 1–3 of 7 are old: their long results are stubs; 4–6 and the short 7th are whole.
    expect(tools.map((message) => message.content.length > 1000)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
    expect(tools[0]?.content).toBe(agedStub({ name: 'read_file', content: BIG }));
    // The stub answers the same call (its id is the message's) and says what was left out, in a line
    // short enough to go into the request body as it is (see request-texts.ts).
    expect(tools[0]).toMatchObject({ role: 'tool', call_id: 'c1' });
    expect(tools[0]?.content).toMatch(
      /^\[[\d.]+ KiB result left out to save room; call read_file again if you need it\.\]$/,
    );
    expect(tools[0]?.content.length).toBeLessThan(REFERRED_MIN_CHARS);
    expect(messages.filter((message) => message.role === 'tool').every((message) => message.content.length > 1)).toBe(
      true,
    );
  });

  it('gives the same messages for the same context, and leaves the context itself whole', () => {
    const messages = conversation(9);
    const before = structuredClone(messages);
    expect(JSON.stringify(ageToolResults(messages))).toBe(JSON.stringify(ageToolResults(structuredClone(messages))));
    expect(messages).toEqual(before);
  });
});

describe('planCompaction', () => {
  it('keeps the most recent whole steps within the budget and repeats the last user message outside them', () => {
    const messages = conversation(5, 'y'.repeat(400));
    const plan = planCompaction(messages, 250, (list) => JSON.stringify(list).length / 4);
    expect(plan.start).toBe(messages.length - 2);
    expect(messages[plan.start]).toMatchObject({ role: 'assistant' });
    expect(plan.keptCallIds).toEqual(['c5']);
    expect(plan.keptUserMessage).toBe('Read every file.');
  });

  it('finds the steps that fit among 10 000 with a few estimates, not one of a longer tail per step', () => {
    const messages = conversation(10_000, 'short');
    const tails: number[] = [];
    const estimate = (list: readonly ChatMessage[]): number => {
      tails.push(list.length);
      return list.length * 10;
    };
    // 3 000 messages fit: the last 1 500 steps.
    const plan = planCompaction(messages, 30_000, estimate);
    expect(plan.start).toBe(messages.length - 3_000);
    expect(messages[plan.start]).toMatchObject({ role: 'assistant' });
    expect(tails.length).toBeLessThanOrEqual(20);
    expect(planCompaction(messages, 1_000_000, estimate).start).toBe(1);
    expect(planCompaction(messages, 5, estimate).start).toBe(messages.length);
  });
});

describe('planCompaction and project instructions', () => {
  it('carries the latest document of each instruction file, and none of a file deleted since', () => {
    const first = '<instructions source="AGENTS.md">\nUse tabs.\n</instructions>';
    const edited = '<instructions source="AGENTS.md" status="changed">\nUse spaces.\n</instructions>';
    const nested = '<instructions source="web/AGENTS.md">\nNo jQuery.\n</instructions>';
    const removed = '<instructions source="web/AGENTS.md" status="removed">gone</instructions>';
    const messages: ChatMessage[] = [
      { role: 'user', content: first },
      ...conversation(2),
      { role: 'user', content: nested },
      { role: 'user', content: edited },
      { role: 'user', content: removed },
      ...conversation(1).slice(1),
    ];
    const plan = planCompaction(messages, 10, () => 1000);
    expect(plan.keptInstructions).toEqual([edited]);
  });
});

describe('compactContext', () => {
  function input(
    adapter: ReturnType<typeof modelFor>,
    messages: ChatMessage[],
    sink: StatusSink = new StatusRecorder(),
  ) {
    return {
      model: adapter,
      budget: fixedBudget({ window: 8000 }),
      sink,
      system: 'You are a coding assistant.',
      tools: [],
      messages,
      trigger: 'manual' as const,
    };
  }

  it('leaves the context as it was and says so when the model errs', async () => {
    const { adapter } = await model({
      steps: [{ fault: { type: 'http_error', status: 400, message: 'prompt is too long', should_retry: false } }],
    });
    const messages = conversation(8);
    const before = structuredClone(messages);
    const recorder = new StatusRecorder();
    const result = await compactContext(input(adapter, messages, recorder));
    expect(result.type).toBe('compaction_failed');
    expect(messages).toEqual(before);
    const failed = recorder.ofType('compaction_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toMatch(/not compacted.*prompt is too long.*Nothing was removed/s);
    expect(recorder.ofType('compaction')).toEqual([]);
  });

  it('leaves the context as it was when the summary comes back empty', async () => {
    const { adapter } = await model({ steps: [{ text: ['  ', '\n'] }] });
    const messages = conversation(8);
    const before = structuredClone(messages);
    const recorder = new StatusRecorder();
    const result = await compactContext(input(adapter, messages, recorder));
    expect(result).toMatchObject({ type: 'compaction_failed', error: expect.stringContaining('empty summary') });
    expect(messages).toEqual(before);
    expect(recorder.ofType('compaction_failed')).toHaveLength(1);
  });

  it('leaves the context as it was when the compaction cannot be recorded', async () => {
    const { adapter } = await model({ steps: [{ text: ['## Goal and open tasks\nRead the files.'] }] });
    const messages = conversation(8);
    const before = structuredClone(messages);
    const broken: StatusSink = {
      emit: (event) => {
        if (event.type === 'compaction') throw new Error('ENOSPC: no space left on device');
      },
    };
    await expect(compactContext(input(adapter, messages, broken))).rejects.toThrow('ENOSPC');
    expect(messages).toEqual(before);
  });

  it('replaces the older messages by the summary, and replay of its event builds the same context', async () => {
    const { adapter, server } = await model({ steps: [{ text: ['## Goal and open tasks\nRead the files.'] }] });
    const messages = conversation(8);
    const original = structuredClone(messages);
    const recorder = new StatusRecorder();
    const result = await compactContext({ ...input(adapter, messages, recorder), focus: 'the file names' });
    if (result.type !== 'compaction') throw new Error(`not compacted: ${result.error}`);
    expect(result.tokens_after).toBeLessThan(result.tokens_before);
    expect(messages[0]).toMatchObject({ role: 'user', content: expect.stringContaining('Read the files.') });
    expect(messages.at(-1)).toEqual(original.at(-1));
    // The summary request: the transcript and the focus in one user message, no tools.
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body).toContain('the file names');
    expect(body).toContain('c1');
    expect(server.requests[0]?.body['tools']).toBeUndefined();
    // Replay: the events that made the original context, then the compaction event.
    const events: StatusEvent[] = [
      { type: 'user_message', turn_id: 't', text: 'Read every file.' },
      ...original
        .filter((message) => message.role === 'assistant')
        .map((message) => ({
          type: 'assistant_message' as const,
          turn_id: 't',
          text: message.content,
          tool_calls: message.tool_calls,
        })),
      result,
    ];
    const contents = new Map(original.flatMap((m) => (m.role === 'tool' ? [[m.call_id, m] as const] : [])));
    const rebuilt = rebuildContext(events, (id) => {
      const found = contents.get(id);
      return found ? { call_id: id, name: found.name, content: found.content, is_error: found.is_error } : undefined;
    });
    expect(rebuilt).toEqual(messages);
  });

  it('refuses when only the latest step is there to summarise', async () => {
    const { adapter, server } = await model({ steps: [] });
    const messages = [{ role: 'user' as const, content: 'Hello' }];
    const result = await compactContext(input(adapter, messages));
    expect(result).toMatchObject({
      type: 'compaction_failed',
      error: expect.stringMatching(/^Nothing to compact yet: /),
    });
    expect(server.requests).toEqual([]);
  });
});

describe('compactionDue', () => {
  const request = (messages: ChatMessage[]) => ({ system: '', messages, tools: [] });
  const adapter = { id: 'anthropic:claude-fixture', stream: () => (async function* () {})() };

  it('asks for a compaction past the threshold, never when it is off, and always when the window is passed', () => {
    const messages = conversation(3, 'z'.repeat(300));
    const estimate = (tokens: number) => () => tokens;
    const budget = (tokens: number, threshold: number | null) => ({
      ...fixedBudget({ window: 1000, threshold }),
      estimate: estimate(tokens),
    });
    expect(compactionDue(budget(800, 0.85), adapter, request(messages))).toBeNull();
    expect(compactionDue(budget(900, 0.85), adapter, request(messages))).toEqual({ trigger: 'auto' });
    expect(compactionDue(budget(900, null), adapter, request(messages))).toBeNull();
    expect(compactionDue(budget(1200, null), adapter, request(messages))).toMatchObject({
      trigger: 'window',
      notice: expect.stringContaining('1000-token window of anthropic:claude-fixture'),
    });
    expect(compactionDue(fixedBudget({}), adapter, request(messages))).toBeNull();
  });
});
