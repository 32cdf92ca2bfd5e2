import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { modelInfo } from '../model/model-info.ts';
import { createModelAdapter } from '../model/index.ts';
import { readSessionFile } from '../session/replay.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { sessionLines, ToolKit } from '../../test/agent-kit.ts';

// The context meter through a real session: an estimate before each step (live only), the
// provider's usage with the window and the cost after it (durable), and a resumed session that
// goes on counting the cost from where its log left it.

let workspace: string;
let root: string;
let server: FixtureServer;
const sessions: AgentSession[] = [];

// A remote compat server (so not free) whose prices and window come from an override, and a
// window the fixture server states itself for the loopback id.
const PRICES = { input: 2, output: 10 };

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ws-')));
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-sessions-'));
  server = await startFixtureServer({
    script: {
      models: [{ id: 'small', context_window: 8_000 }],
      steps: [
        { tool_calls: [{ name: 'read_note', args: {} }], usage: { input_tokens: 1_000, output_tokens: 50 } },
        { text: ['Done.'], usage: { input_tokens: 1_200, output_tokens: 20 } },
        { text: ['Again.'], usage: { input_tokens: 1_500, output_tokens: 10 } },
      ],
    },
  });
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function open(recorder: StatusRecorder, id?: string): Promise<AgentSession> {
  const modelId = `compat:${server.baseURL}#small`;
  const options = {
    root,
    workspace,
    model: createModelAdapter(modelId, { env: {} }),
    sink: recorder,
    tools: new ToolKit().tools,
    rules: ALLOW_ALL,
    modelInfo: (id: string) => modelInfo(id, { [modelId]: { prices: PRICES } }, { context_window: 8_000 }),
  };
  const session = id === undefined ? await AgentSession.start(options) : await AgentSession.resume({ ...options, id });
  sessions.push(session);
  return session;
}

describe('usage per step', () => {
  it('estimates each request before it goes out, then records the provider usage, window and cost', async () => {
    const recorder = new StatusRecorder();
    const session = await open(recorder);
    session.send('Read the note.');
    await session.idle();

    const kinds = recorder.events
      .map((event) => event.type)
      .filter((type) => type === 'context_estimate' || type === 'step_usage' || type === 'tool_started');
    expect(kinds).toEqual(['context_estimate', 'step_usage', 'tool_started', 'context_estimate', 'step_usage']);

    const estimates = recorder.ofType('context_estimate');
    expect(estimates[0]?.context_window).toBe(8_000);
    // The second request holds the first, the assistant's call and its result: it is larger.
    expect(estimates[1]!.context_tokens).toBeGreaterThan(estimates[0]!.context_tokens);

    const steps = recorder.ofType('step_usage');
    expect(steps.map((step) => [step.context_tokens, step.context_window])).toEqual([
      [1_050, 8_000],
      [1_220, 8_000],
    ]);
    const first = (1_000 * 2 + 50 * 10) / 1e6;
    const second = (1_200 * 2 + 20 * 10) / 1e6;
    expect(steps[0]?.cost).toBeCloseTo(first, 12);
    expect(steps[1]?.session_cost).toBeCloseTo(first + second, 12);
    // The compatible wire reports cache reads and reasoning (none here).
    expect(steps[0]?.usage).toEqual({
      input_tokens: 1_000,
      output_tokens: 50,
      cache_read_tokens: 0,
      reasoning_tokens: 0,
    });
    expect(recorder.ofType('turn_completed')[0]?.usage).toEqual({ input_tokens: 2_200, output_tokens: 70 });
  });

  it('writes step usage to the log but never the estimates, and a resumed session goes on from its cost', async () => {
    const recorder = new StatusRecorder();
    const session = await open(recorder);
    session.send('Read the note.');
    await session.idle();
    const id = session.id;
    const file = session.file;
    await session.close();
    sessions.splice(0);

    const lines = await sessionLines(file);
    const types = lines.map((line) => (line.event as { type?: string } | undefined)?.type);
    expect(types.filter((type) => type === 'step_usage')).toHaveLength(2);
    expect(types).not.toContain('context_estimate');
    const replay = await readSessionFile(file);
    expect(replay.events.filter((event) => event.type === 'step_usage')).toHaveLength(2);

    const again = new StatusRecorder();
    const resumed = await open(again, id);
    resumed.send('Once more.');
    await resumed.idle();
    const step = again.ofType('step_usage')[0];
    const before = (1_000 * 2 + 50 * 10 + 1_200 * 2 + 20 * 10) / 1e6;
    expect(step?.cost).toBeCloseTo((1_500 * 2 + 10 * 10) / 1e6, 12);
    expect(step?.session_cost).toBeCloseTo(before + (step?.cost ?? 0), 12);
  });
});
