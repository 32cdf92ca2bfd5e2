import { access, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { startFixtureServer } from '../model/fixture-server.ts';
import { EVERYTHING } from '../../test/mcp-servers.ts';
import { PERMISSION_MODES } from '../../protocol/values.ts';
import { readSessionFile } from '../session/replay.ts';
import { fastDemoModel, startAcpAgent, updatesOf, type AcpAgentProcess } from '../../test/acp-agent-process.ts';
import { AcpSchema, conversationProblems } from '../../test/acp-frames.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';

// `aether acp` over real stdio, driven by the SDK's own client: session/load's replay, modes,
// and the faults — malformed JSON-RPC, an unknown method, a prompt during a turn, a client gone
// mid-turn, a cancel racing a permission request. Every frame, both ways, fits the SDK's schema.

const temp = useTempWorkspace('aether-acp-');
const running: AcpAgentProcess[] = [];
// The demo model's steps, served at full speed from this process: the same turns as --model demo.
let demo: Awaited<ReturnType<typeof fastDemoModel>>;

beforeEach(async () => {
  demo = await fastDemoModel();
});

afterEach(async () => {
  for (const agent of running.splice(0)) {
    agent.child.stdin?.end();
    await agent.exited;
  }
  await demo.close();
});

type PermissionHandler = (
  params: acp.RequestPermissionRequest,
  agent: acp.ClientContext,
) => Promise<acp.RequestPermissionResponse>;

const allowOnce: PermissionHandler = async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });

function start(args: string[] = [], permission: PermissionHandler = allowOnce) {
  const agent = startAcpAgent(['--model', demo.model, '--sessions', temp.sessionsRoot, ...args], {
    AETHERCODEX_HOME: path.join(temp.root, 'home'),
    ...demo.env,
  });
  running.push(agent);
  const connection = acp
    .client({ name: 'test-client' })
    .onRequest('session/request_permission', ({ params, agent: back }) => permission(params, back))
    .onNotification('session/update', () => undefined)
    .connect(agent.stream);
  return { agent, client: connection.agent, connection };
}

/** `aether acp` on the fixture model playing `steps`, initialized, with a client that takes updates. */
async function startScripted(steps: FixtureScriptInput['steps']) {
  const model = await startFixtureServer({ script: { steps } });
  onTestFinished(() => model.close());
  const agent = startAcpAgent(['--model', `compat:${model.baseURL}#fixture`, '--sessions', temp.sessionsRoot], {
    AETHERCODEX_HOME: path.join(temp.root, 'home'),
  });
  running.push(agent);
  const client = acp
    .client({ name: 'test-client' })
    .onNotification('session/update', () => undefined)
    .connect(agent.stream).agent;
  await initialized(client);
  return { agent, client };
}

async function initialized(client: acp.ClientContext): Promise<acp.InitializeResponse> {
  return client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
}

function text(updates: readonly acp.SessionUpdate[], kind: 'agent_message_chunk' | 'user_message_chunk'): string {
  return updates
    .map((update) => (update.sessionUpdate === kind && update.content.type === 'text' ? update.content.text : ''))
    .join('');
}

async function sessionEvents(id: string) {
  return (await readSessionFile(path.join(temp.sessionsRoot, `${id}.jsonl`))).events;
}

describe('aether acp over stdio', () => {
  it('says what it offers: session/load and list, embedded context, the permission modes', async () => {
    const { agent, client } = start();
    const init = await initialized(client);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { embeddedContext: true, image: false },
      sessionCapabilities: { list: {}, close: {} },
    });
    const made = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    expect(made.modes?.currentModeId).toBe('ask');
    expect(made.modes?.availableModes.map((mode) => mode.id)).toEqual([...PERMISSION_MODES]);
    expect(conversationProblems(agent.frames)).toEqual([]);
  });

  it('replays a stored session on session/load: the person, the answer, each call with its result', async () => {
    const first = start();
    await initialized(first.client);
    const { sessionId } = await first.client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    const done = await first.client.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Show me the demo' }],
    });
    expect(done.stopReason).toBe('end_turn');
    first.agent.child.stdin!.end();
    expect(await first.agent.exited).toBe(0);

    const second = start();
    await initialized(second.client);
    const loaded = await second.client.request('session/load', { sessionId, cwd: temp.workspace, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('ask');
    const replayed = updatesOf(second.agent.frames);
    expect(text(replayed, 'user_message_chunk')).toBe('Show me the demo');
    expect(text(replayed, 'agent_message_chunk')).toContain('Patched: AETHER_DEMO.md now says it was patched.');
    // The live turn's text, told again whole: the same words the deltas carried.
    expect(text(replayed, 'agent_message_chunk')).toBe(text(updatesOf(first.agent.frames), 'agent_message_chunk'));
    const calls = replayed.flatMap((update) =>
      update.sessionUpdate === 'tool_call' ||
      (update.sessionUpdate === 'tool_call_update' && update.status !== 'in_progress')
        ? [`${update.sessionUpdate} ${update.status}`]
        : [],
    );
    expect(calls).toEqual(Array(4).fill(['tool_call pending', 'tool_call_update completed']).flat());
    expect(conversationProblems([...first.agent.frames, ...second.agent.frames])).toEqual([]);
  });

  it('refuses a session/load from another cwd, naming the session’s own', async () => {
    const { client } = start();
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    const elsewhere = path.dirname(temp.workspace);
    await expect(client.request('session/load', { sessionId, cwd: elsewhere, mcpServers: [] })).rejects.toThrow(
      `was made in ${temp.workspace}`,
    );
  });

  it('maps modes to permission modes: read-only refuses the write without asking', async () => {
    let asked = 0;
    const { agent, client } = start([], async () => {
      asked += 1;
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    await client.request('session/set_mode', { sessionId, modeId: 'read-only' });
    await expect(client.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toThrow(
      `Unknown mode "yolo": use ${PERMISSION_MODES.join(', ')}.`,
    );
    const done = await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'demo' }] });
    expect(done.stopReason).toBe('end_turn');
    expect(asked).toBe(0);
    const failed = updatesOf(agent.frames).filter(
      (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'failed',
    );
    expect(failed).toHaveLength(1);
    await expect(access(path.join(temp.workspace, 'AETHER_DEMO.md'))).rejects.toThrow();
  });

  it('answers malformed JSON-RPC with a parse error and goes on serving', async () => {
    const { agent, client } = start();
    agent.writeRaw('{"jsonrpc":"2.0","id":7,"method":\n');
    await expect
      .poll(() => agent.frames.find(({ from, frame }) => from === 'agent' && 'error' in frame)?.frame)
      .toMatchObject({
        error: { code: -32700 },
      });
    expect((await initialized(client)).protocolVersion).toBe(acp.PROTOCOL_VERSION);
  });

  it('answers an unknown method with method-not-found', async () => {
    const { client } = start();
    await initialized(client);
    await expect(client.request('session/frobnicate', { sessionId: 'x' })).rejects.toMatchObject({ code: -32601 });
  });

  it('refuses a prompt while a turn runs, and the running turn goes on to its end', async () => {
    let second: Promise<unknown> | undefined;
    // The turn waits on its first question while a second prompt comes in.
    const { client } = start([], async (params, back) => {
      second ??= back
        .request('session/prompt', { sessionId: params.sessionId, prompt: [{ type: 'text', text: 'again' }] })
        .catch((error: unknown) => error);
      await second;
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    const first = await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'demo' }] });
    expect(await second).toMatchObject({
      message: expect.stringContaining('A turn is already running in this session'),
    });
    expect(first.stopReason).toBe('end_turn');
    expect(await readFile(path.join(temp.workspace, 'AETHER_DEMO.md'), 'utf8')).toContain('patched by the demo model');
  });

  it('stops the turn when the client goes mid-turn, and the session stays loadable', async () => {
    const { agent, client } = start();
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    void client
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'demo' }] })
      .catch(() => undefined);
    await expect.poll(() => updatesOf(agent.frames).length).toBeGreaterThan(2);
    agent.child.stdin!.end();
    expect(await agent.exited).toBe(0);
    expect((await sessionEvents(sessionId)).at(-1)).toMatchObject({
      type: 'turn_failed',
      aborted: true,
      error: 'The ACP client disconnected.',
    });

    const again = start();
    await initialized(again.client);
    await again.client.request('session/load', { sessionId, cwd: temp.workspace, mcpServers: [] });
    expect(text(updatesOf(again.agent.frames), 'user_message_chunk')).toBe('demo');
  });

  it('settles a cancel racing a permission request: nothing is written and the prompt answers cancelled', async () => {
    const { agent, client } = start([], async (params, back) => {
      // The person cancels while the question is open, then the client's late answer says allow.
      await back.notify('session/cancel', { sessionId: params.sessionId });
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    const done = await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'demo' }] });
    expect(done.stopReason).toBe('cancelled');
    await expect(access(path.join(temp.workspace, 'AETHER_DEMO.md'))).rejects.toThrow();
    const events = await sessionEvents(sessionId);
    expect(events.find((event) => event.type === 'tool_approval_resolved')).toMatchObject({
      answer: 'deny',
      stopped: true,
    });
    expect(conversationProblems(agent.frames)).toEqual([]);
  });

  it('turns a denial into a failed call the model reads, and the demo says nothing was written', async () => {
    const { agent, client } = start([], async () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } }));
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'demo' }] });
    expect(text(updatesOf(agent.frames), 'agent_message_chunk')).toContain(
      'You turned down the write of AETHER_DEMO.md',
    );
    expect(await readdir(temp.workspace)).not.toContain('AETHER_DEMO.md');
  });

  it('reads a file link in the workspace for the model, as an @ mention', async () => {
    const { client } = start();
    await initialized(client);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(temp.workspace, 'plan.md'), 'the plan\n');
    await client.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Look at' },
        { type: 'resource_link', name: 'plan.md', uri: `file://${path.join(temp.workspace, 'plan.md')}` },
      ],
    });
    const user = (await sessionEvents(sessionId)).find((event) => event.type === 'user_message');
    expect(user).toMatchObject({ text: 'Look at\n@plan.md', mention_calls: [expect.any(String)] });
    expect(await readFile(path.join(temp.workspace, 'plan.md'), 'utf8')).toBe('the plan\n');
  });
});

describe('MCP servers a client passes', () => {
  it('starts them with the session and the model calls their tools', async () => {
    const { agent, client } = await startScripted([
      { tool_calls: [{ name: 'mcp__everything__get-sum', args: { a: 2, b: 3 } }] },
      { text: ['The sum is 5.'] },
    ]);
    const { sessionId } = await client.request('session/new', {
      cwd: temp.workspace,
      mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING], env: [] }],
    });
    const done = await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Add 2 and 3' }] });
    expect(done.stopReason).toBe('end_turn');
    const result = updatesOf(agent.frames).find(
      (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'completed',
    );
    expect(JSON.stringify(result)).toContain('The sum of 2 and 3 is 5.');
    expect(conversationProblems(agent.frames)).toEqual([]);
  });
});

describe('the todo list', () => {
  it('reaches the client as a plan, whole at each change, a dropped item left out', async () => {
    const todos = [
      { id: 'read', text: 'Read the code', status: 'done' },
      { id: 'fix', text: 'Fix the bug', status: 'in_progress' },
      { id: 'old', text: 'An idea given up', status: 'dropped' },
      { id: 'test', text: 'Run the tests', status: 'pending' },
    ];
    const { agent, client } = await startScripted([
      { tool_calls: [{ name: 'todo_write', args: { todos } }] },
      { text: ['Planned.'] },
    ]);
    const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
    await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Plan it' }] });
    const plans = updatesOf(agent.frames).filter((update) => update.sessionUpdate === 'plan');
    expect(plans).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the code', priority: 'medium', status: 'completed' },
          { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
          { content: 'Run the tests', priority: 'medium', status: 'pending' },
        ],
      },
    ]);
    expect(conversationProblems(agent.frames)).toEqual([]);
  });
});

describe('the frame check', () => {
  it('finds a frame the schema refuses', () => {
    const schema = new AcpSchema();
    const bad = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'tool_call' } },
    };
    expect(schema.problems('agent', bad)).not.toEqual([]);
    const good = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Read a' } },
    };
    expect(schema.problems('agent', good)).toEqual([]);
  });
});
