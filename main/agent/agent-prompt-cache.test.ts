import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { usageCost } from '../../protocol/models.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { createModelAdapter } from '../model/index.ts';
import { modelInfo } from '../model/model-info.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';

// The prompt cache's lifetime from the session's options to the wire and the cost: an hour asks
// Anthropic for `ttl: 1h` on each breakpoint, and its writes cost twice the input price.

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function session(ttl: '5m' | '1h'): Promise<{ server: FixtureServer; recorder: StatusRecorder }> {
  const server = await startFixtureServer({ promptCache: true, script: { steps: [{ text: ['Hello.'] }] } });
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ws-')));
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-sessions-'));
  const recorder = new StatusRecorder();
  const agent = await AgentSession.start({
    root,
    workspace,
    model: createModelAdapter('anthropic:claude-sonnet-4', {
      env: {},
      keys: { anthropic: 'k' },
      baseURLs: { anthropic: server.baseURL },
    }),
    sink: recorder,
    rules: ALLOW_ALL,
    promptCacheTtl: ttl,
  });
  cleanup.push(async () => {
    await agent.close();
    await server.close();
    await rm(workspace, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });
  agent.send('Hi');
  await agent.idle();
  return { server, recorder };
}

describe('the prompt cache’s lifetime', () => {
  it('asks for an hour on every breakpoint, and prices its writes at twice the input price', async () => {
    const { server, recorder } = await session('1h');
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body.match(/"cache_control":\{"type":"ephemeral","ttl":"1h"\}/g)?.length).toBeGreaterThanOrEqual(2);
    const usage = recorder.events.find((event) => event.type === 'step_usage');
    if (usage?.type !== 'step_usage') throw new Error('no step_usage');
    expect(usage.usage.cache_write_tokens).toBeGreaterThan(1_000);
    const prices = modelInfo('anthropic:claude-sonnet-4').prices!;
    expect(usage.cost).toBeCloseTo(usageCost(usage.usage, { ...prices, cache_write: prices.input * 2 }), 10);
    expect(usage.cost).toBeGreaterThan(usageCost(usage.usage, prices));
  });

  it('asks for the default 5 minutes otherwise', async () => {
    const { server } = await session('5m');
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body).toContain('"cache_control":{"type":"ephemeral"}');
    expect(body).not.toContain('"ttl"');
  });
});
