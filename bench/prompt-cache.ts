import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentSession } from '../main/agent/agent-session.ts';
import { createModelAdapter } from '../main/model/index.ts';
import { modelInfo } from '../main/model/model-info.ts';
import { startFixtureServer } from '../main/model/fixture-server.ts';
import { parseFixtureStep } from '../main/model/fixture-script.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { ALLOW_ALL } from '../main/tools/permission-gate.ts';
import { readPart } from '../test/read-part-tool.ts';
import { usageCost } from '../protocol/models.ts';

// What prompt caching saves over a 40-step session: four turns of ten steps, each step reading a
// 6 KiB result that ages later, one compaction by hand before the third turn. The fixture model
// server counts each request's tokens and its cache reads and writes by the provider's rules; the
// figures are the share of input tokens read from the cache, and the session's cost at the
// catalog's prices against the same tokens all billed as plain input (no cache).

const TURNS = 4;
const STEPS_PER_TURN = 10;

interface Figures {
  input: number;
  read: number;
  write: number;
  cost: number;
  uncachedCost: number;
}

async function session(modelId: string, wire: 'anthropic' | 'openai'): Promise<Figures> {
  let steps = 0;
  const server = await startFixtureServer({
    promptCache: true,
    respond: (request) => {
      if (!Array.isArray(request.body.tools) || request.body.tools.length === 0)
        return parseFixtureStep({ text: ['## Goal and open tasks\nRead the parts one by one.'] });
      steps += 1;
      if (steps % STEPS_PER_TURN === 0) return parseFixtureStep({ text: [`Done with these parts (${steps}).`] });
      return parseFixtureStep({
        text: [`Reading part ${steps}.`],
        tool_calls: [{ id: `read-${steps}`, name: 'read_part', args: { part: steps } }],
        usage: { input_tokens: 0, output_tokens: 40 },
      });
    },
  });
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-bench-ws-')));
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-sessions-'));
  const recorder = new StatusRecorder();
  const agent = await AgentSession.start({
    root,
    workspace,
    model: createModelAdapter(modelId, {
      env: {},
      keys: { [wire]: 'bench-key' },
      baseURLs: { [wire]: server.baseURL },
    }),
    sink: recorder,
    tools: [readPart],
    rules: ALLOW_ALL,
  });
  try {
    for (let turn = 1; turn <= TURNS; turn += 1) {
      if (turn === 3) await agent.compact();
      agent.send(`Read the next ${STEPS_PER_TURN - 1} parts.`);
      await agent.idle();
    }
  } finally {
    await agent.close();
    await server.close();
    await rm(workspace, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  }
  const prices = modelInfo(modelId).prices;
  if (prices === undefined) throw new Error(`The catalog has no prices for ${modelId}.`);
  const figures: Figures = { input: 0, read: 0, write: 0, cost: 0, uncachedCost: 0 };
  for (const event of recorder.events) {
    if (event.type !== 'step_usage') continue;
    const usage = event.usage;
    figures.input += usage.input_tokens;
    figures.read += usage.cache_read_tokens ?? 0;
    figures.write += usage.cache_write_tokens ?? 0;
    figures.cost += usageCost(usage, prices);
    figures.uncachedCost += usageCost({ input_tokens: usage.input_tokens, output_tokens: usage.output_tokens }, prices);
  }
  return figures;
}

export async function run(): Promise<void> {
  const numbers = new Intl.NumberFormat('en');
  console.log(`Prompt caching over a ${TURNS * STEPS_PER_TURN}-step session with aging results and one compaction`);
  for (const [modelId, wire] of [
    ['anthropic:claude-sonnet-4', 'anthropic'],
    ['openai:gpt-5', 'openai'],
  ] as const) {
    const figures = await session(modelId, wire);
    const share = (figures.read / figures.input) * 100;
    console.log(
      `  ${modelId.padEnd(28)} cached share ${share.toFixed(1)} % of ${numbers.format(figures.input)} input tokens` +
        ` (${numbers.format(figures.write)} written)   cost $${figures.cost.toFixed(4)} vs $${figures.uncachedCost.toFixed(4)} uncached` +
        `   ratio ${(figures.cost / figures.uncachedCost).toPrecision(3)}×`,
    );
  }
}
