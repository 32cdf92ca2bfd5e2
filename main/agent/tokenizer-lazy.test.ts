import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { createModelAdapter } from '../model/index.ts';
import { modelInfo } from '../model/model-info.ts';
import { tokenizerLoaded } from '../model/token-estimate.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';

// A session whose context is far from its window never loads the tokenizer's tables: its meter
// shows the count by length and says so, and compaction knows it is not due. One near its lines
// loads them and estimates. In this order: the tables, once loaded, stay for the process.

const SCRIPT = {
  steps: [
    {
      tool_calls: [{ name: 'read_file', args: { path: 'app.ts' } }],
      usage: { input_tokens: 6_000, output_tokens: 20 },
    },
    { text: ['It greets.'], usage: { input_tokens: 6_900, output_tokens: 5 } },
  ],
};

let base: string;
let server: FixtureServer;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-lazy-tokens-')));
  await writeFile(path.join(base, 'app.ts'), 'export const greet = (name: string) => `Hello, ${name}`;\n'.repeat(40));
  server = await startFixtureServer({ script: SCRIPT });
});

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

async function turn(window: number, sessions: string, resume?: string) {
  server.load(SCRIPT);
  const modelId = `compat:${server.baseURL}#fixture`;
  const recorder = new StatusRecorder();
  const options = {
    root: path.join(base, sessions),
    workspace: base,
    model: createModelAdapter(modelId, { env: {} }),
    sink: recorder,
    rules: ALLOW_ALL,
    modelInfo: (id: string) => modelInfo(id, {}, { context_window: window }),
  };
  const session =
    resume === undefined ? await AgentSession.start(options) : await AgentSession.resume({ ...options, id: resume });
  const id = session.id;
  try {
    session.send('What does app.ts do?');
    await session.idle();
  } finally {
    await session.close();
  }
  expect(recorder.ofType('turn_completed')).toHaveLength(1);
  return { id, estimates: recorder.ofType('context_estimate'), steps: recorder.ofType('step_usage') };
}

it('runs a turn far from the window by length, without the tokenizer, and says the figures are by length', async () => {
  const { estimates, steps } = await turn(200_000, 'far');
  expect(tokenizerLoaded()).toBe(false);
  expect(estimates).toHaveLength(2);
  for (const estimate of estimates) expect(estimate).toMatchObject({ by_length: true, context_window: 200_000 });
  // The second request holds the first, the call and its result, counted in the provider's terms.
  expect(estimates[1]!.context_tokens).toBeGreaterThan(steps[0]!.usage.input_tokens);
  // No tokenizer estimate to record against the provider's figure.
  expect(steps.map((step) => step.estimated_tokens)).toEqual([undefined, undefined]);
});

it('resumes that session and runs its next turn by length too', async () => {
  const { id } = await turn(200_000, 'resumed');
  const { estimates } = await turn(200_000, 'resumed', id);
  expect(tokenizerLoaded()).toBe(false);
  expect(estimates.map((estimate) => estimate.by_length)).toEqual([true, true]);
});

it('estimates with the tokenizer once the count by length could reach where compaction is near', async () => {
  // The built-in tools' declarations alone are more bytes than three quarters of this window.
  const { estimates, steps } = await turn(20_000, 'near');
  expect(tokenizerLoaded()).toBe(true);
  for (const estimate of estimates) expect(estimate.by_length).toBeUndefined();
  expect(steps.every((step) => (step.estimated_tokens ?? 0) > 0)).toBe(true);
});
