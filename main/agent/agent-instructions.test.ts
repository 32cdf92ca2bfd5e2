import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReasoningEffort } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { createModelAdapter } from '../model/index.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { readSessionFile } from '../session/replay.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { conversationOf, modelFor, ToolKit, waitForEvent } from '../../test/agent-kit.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';

// Project instructions and reasoning through a whole session: what the model's requests carry (the
// fixture server records them), what the log keeps, and what a resumed session sends.

const temp = useTempWorkspace('aether-agent-instructions-');
const servers: FixtureServer[] = [];
const sessions: AgentSession[] = [];

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(script: FixtureScriptInput): Promise<FixtureServer> {
  const server = await startFixtureServer({ script });
  servers.push(server);
  return server;
}

async function open(
  server: FixtureServer,
  options: { resume?: string; effort?: ReasoningEffort; compat?: boolean } = {},
) {
  const recorder = new StatusRecorder();
  const base = {
    root: temp.sessionsRoot,
    workspace: temp.workspace,
    model: options.compat
      ? createModelAdapter(`compat:${server.baseURL}#scripted`, { env: {} })
      : modelFor('anthropic', server),
    sink: recorder,
    tools: new ToolKit().tools,
    rules: ALLOW_ALL,
    ...(options.effort ? { effort: options.effort } : {}),
  };
  const session = options.resume
    ? await AgentSession.resume({ ...base, id: options.resume })
    : await AgentSession.start(base);
  sessions.push(session);
  return { session, recorder };
}

async function put(relative: string, text: string): Promise<void> {
  const file = path.join(temp.workspace, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('project instructions in a session', () => {
  it("puts AGENTS.md in the model's request before the person's message, and a resumed session sends the same", async () => {
    await put('AGENTS.md', 'Always run the linter.\n');
    const first = await serve({ steps: [{ text: ['Noted.'] }] });
    const { session, recorder } = await open(first);
    session.send('Hello');
    await session.idle();

    const document = '<instructions source="AGENTS.md">\nAlways run the linter.\n</instructions>';
    expect(conversationOf(first.requests[0]!.body)).toEqual([
      { kind: 'user', text: document },
      { kind: 'user', text: 'Hello' },
    ]);
    expect(recorder.ofType('context_message')).toMatchObject([
      { source: 'AGENTS.md', change: 'loaded', text: document },
    ]);
    await session.close();

    const second = await serve({ steps: [{ text: ['Still noted.'] }] });
    const { session: again, recorder: later } = await open(second, { resume: session.id });
    again.send('Again');
    await again.idle();
    expect(conversationOf(second.requests[0]!.body)).toEqual([
      { kind: 'user', text: document },
      { kind: 'user', text: 'Hello' },
      { kind: 'assistant', text: 'Noted.', calls: [] },
      { kind: 'user', text: 'Again' },
    ]);
    expect(later.ofType('context_message')).toEqual([]);
  });

  it('sends an edited file again before the next turn, and replay rebuilds the context with both', async () => {
    await put('AGENTS.md', 'Version one.\n');
    const server = await serve({ steps: [{ text: ['One.'] }, { text: ['Two.'] }] });
    const { session, recorder } = await open(server);
    session.send('First');
    await session.idle();
    await put('AGENTS.md', 'Version two.\n');
    session.send('Second');
    await session.idle();

    expect(recorder.ofType('context_message').map((event) => event.change)).toEqual(['loaded', 'changed']);
    const sent = conversationOf(server.requests[1]!.body);
    expect(sent.at(-2)).toMatchObject({ kind: 'user', text: expect.stringContaining('Version two.') as string });
    expect(sent.at(-1)).toEqual({ kind: 'user', text: 'Second' });
    expect((await readSessionFile(session.file)).context).toEqual(session.context());
  });

  it("sends a nested AGENTS.md after the first call in its folder, before the model's next step", async () => {
    await put('pkg/AGENTS.md', 'Package rules.\n');
    await put('pkg/a.txt', 'alpha\n');
    const server = await serve({
      steps: [{ tool_calls: [{ id: 'r1', name: 'read_note', args: { path: 'pkg/a.txt' } }] }, { text: ['Read.'] }],
    });
    const { session } = await open(server);
    session.send('Read pkg/a.txt');
    await session.idle();

    expect(conversationOf(server.requests[0]!.body)).toEqual([{ kind: 'user', text: 'Read pkg/a.txt' }]);
    expect(conversationOf(server.requests[1]!.body).slice(1)).toEqual([
      { kind: 'assistant', text: '', calls: ['r1'] },
      { kind: 'tool', id: 'r1', content: 'alpha\n' },
      { kind: 'user', text: '<instructions source="pkg/AGENTS.md">\nPackage rules.\n</instructions>' },
    ]);
    expect((await readSessionFile(session.file)).context).toEqual(session.context());
  });
});

describe('reasoning in a session', () => {
  const thinkingStep = { thinking: ['Let me ', 'think.'], text: ['Answer.'] };

  it('streams reasoning live, records it whole with its duration, and keeps the signed block for resend', async () => {
    const server = await serve({ steps: [thinkingStep] });
    const { session, recorder } = await open(server, { effort: 'high' });
    session.send('Think');
    await session.idle();

    expect(recorder.ofType('reasoning_delta').map((event) => event.text)).toEqual(['Let me ', 'think.']);
    const [reasoning] = recorder.ofType('reasoning');
    expect(reasoning).toMatchObject({ text: 'Let me think.' });
    expect(reasoning!.duration_ms).toBeGreaterThanOrEqual(0);
    const order = recorder.events.map((event) => event.type).filter((type) => type !== 'reasoning_delta');
    expect(order.indexOf('reasoning')).toBeLessThan(order.indexOf('assistant_message'));
    const replay = await readSessionFile(session.file);
    expect(replay.events.filter((event) => event.type === 'reasoning')).toHaveLength(1);
    expect(replay.events.some((event) => event.type === 'reasoning_delta')).toBe(false);
    expect(replay.context[1]).toMatchObject({ role: 'assistant', reasoning: [{ text: 'Let me think.' }] });
  });

  it("streams a compatible server's reasoning_content the same way", async () => {
    const server = await serve({ steps: [thinkingStep] });
    const { session, recorder } = await open(server, { effort: 'medium', compat: true });
    session.send('Think');
    await session.idle();
    expect(recorder.ofType('reasoning_delta').map((event) => event.text)).toEqual(['Let me ', 'think.']);
    expect(recorder.ofType('reasoning')).toMatchObject([{ text: 'Let me think.' }]);
    expect(recorder.ofType('assistant_message')).toMatchObject([{ text: 'Answer.' }]);
  });

  it('keeps the reasoning that arrived when the person stops the turn mid-thought', async () => {
    const server = await serve({
      steps: [{ thinking: ['First ', 'second ', 'third'], text: ['Never.'], chunk_delay_ms: 500 }],
    });
    const { session, recorder } = await open(server, { effort: 'high' });
    session.send('Think slowly');
    await waitForEvent(recorder, (event) => event.type === 'reasoning_delta');
    await session.stop();

    const [reasoning] = recorder.ofType('reasoning');
    expect(reasoning!.text.startsWith('First ')).toBe(true);
    expect(reasoning!.text).not.toContain('third');
    expect(recorder.ofType('turn_failed')).toMatchObject([{ aborted: true }]);
    const replay = await readSessionFile(session.file);
    expect(replay.events.find((event) => event.type === 'reasoning')).toMatchObject({ text: reasoning!.text });
  });

  it('shows no reasoning when effort is off, even from a model that reasons anyway', async () => {
    const server = await serve({ steps: [thinkingStep] });
    const { session, recorder } = await open(server, { effort: 'off' });
    session.send('Think');
    await session.idle();
    expect(recorder.ofType('reasoning_delta')).toEqual([]);
    expect(recorder.ofType('reasoning')).toEqual([]);
    expect(recorder.ofType('assistant_message')).toMatchObject([{ text: 'Answer.' }]);
  });
});
