import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { AgentEcho } from '../../protocol/agents.ts';
import type { StatusEvent, ToolCompletedEvent } from '../../protocol/events.ts';
import type { AgentOptions } from '../../main/agent/agents/agent-options.ts';
import { openAgentSession, type OpenedAgentSession } from '../../main/agent/open-agent-session.ts';
import type { FixtureScriptInput, FixtureStepInput } from '../../main/model/fixture-script.ts';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../../main/model/fixture-server.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { modelFor, sessionLines, waitForEvent } from '../agent-kit.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// A parent session hands work to agents through the `agent` tool: each child is a session of its
// own opened through the front door, with the fixture model answering the parent and each child
// as separate conversations over real HTTP.

const temp = useTempWorkspace('aether-agents-');
const servers: FixtureServer[] = [];
const sessions: OpenedAgentSession[] = [];

afterEach(async () => {
  for (const opened of sessions.splice(0)) await opened.close();
  for (const server of servers.splice(0)) await server.close();
});

async function fixture(script: FixtureScriptInput): Promise<FixtureServer> {
  const server = await startFixtureServer({ script });
  servers.push(server);
  return server;
}

async function open(
  server: FixtureServer,
  options: { resume?: string; root?: string; mode?: 'ask' | 'auto'; home?: string; agents?: AgentOptions } = {},
) {
  const recorder = new StatusRecorder();
  const opened = await openAgentSession({
    workspace: temp.workspace,
    sessionsRoot: options.root ?? temp.sessionsRoot,
    model: modelFor('anthropic', server),
    sink: recorder,
    permissions: { mode: options.mode ?? 'ask' },
    agents: { ...options.agents, ...(options.home ? { home: options.home } : {}) },
    ...(options.resume ? { resume: options.resume } : {}),
  });
  sessions.push(opened);
  return { ...opened, recorder };
}

function agentCall(id: string, task: string, agent = 'explore') {
  return { id, name: 'agent', args: { task, agent } };
}

function completions(events: readonly StatusEvent[], name = 'agent'): ToolCompletedEvent[] {
  return events.filter((event): event is ToolCompletedEvent => event.type === 'tool_completed' && event.name === name);
}

const FOLDERS = ['alpha', 'beta', 'gamma'] as const;

function explorerStream(folder: string): { match: string; steps: FixtureStepInput[] } {
  return {
    match: `folder ${folder}/`,
    steps: [
      // Each child's first request waits until all three are open at once.
      { tool_calls: [{ id: 'list-1', name: 'list_dir', args: { path: folder } }], wait_for_requests: 3 },
      { text: [`${folder}/ holds one file, ${folder}-secret.txt.`] },
    ],
  };
}

function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body);
}

it('runs three explore agents in parallel, keeps only their answers in the parent, and resumes to the same next request', async () => {
  for (const folder of FOLDERS) {
    await mkdir(path.join(temp.workspace, folder));
    await writeFile(path.join(temp.workspace, folder, `${folder}-secret.txt`), `inside ${folder}\n`);
  }
  const server = await fixture({
    steps: [
      {
        tool_calls: FOLDERS.map((folder, index) =>
          agentCall(`a-${index}`, `Look in the folder ${folder}/ and say what it holds.`),
        ),
      },
      { text: ['The three folders each hold one file.'] },
      { text: ['Nothing more.'] },
      { text: ['Nothing more.'] },
    ],
    streams: FOLDERS.map(explorerStream),
  });
  const parent = await open(server);
  expect(parent.session.send('Survey the three folders.').ok).toBe(true);
  const outcome = await parent.session.idle();
  expect(outcome?.status).toBe('completed');

  // The fixture saw the three children's conversations at once.
  expect(server.maxOpen).toBeGreaterThanOrEqual(3);
  const done = completions(parent.recorder.events);
  expect(done.map((event) => (event.result as AgentEcho).ending)).toEqual(['completed', 'completed', 'completed']);
  expect(done.map((event) => (event.result as AgentEcho).answer).sort()).toEqual(
    FOLDERS.map((folder) => `${folder}/ holds one file, ${folder}-secret.txt.`),
  );

  // The parent's request after the children holds their answers, not what they read.
  const parentRequests = server.requests.filter((request) =>
    requestText(request).includes('Survey the three folders.'),
  );
  expect(parentRequests).toHaveLength(2);
  const after = JSON.stringify(parentRequests[1]!.body['messages']);
  for (const folder of FOLDERS) {
    expect(after).toContain(`${folder}/ holds one file`);
    expect(after).not.toContain(`inside ${folder}`);
    expect(after).not.toContain('list_dir');
  }

  // Each child is a session of its own in the parent's folder, linked to the parent and its call.
  const childFolder = path.join(parent.session.log.dir, 'agents');
  const files = (await readdir(childFolder)).filter((name) => name.endsWith('.jsonl'));
  expect(files).toHaveLength(3);
  const headers = await Promise.all(files.map(async (name) => (await sessionLines(path.join(childFolder, name)))[0]));
  expect(headers.map((header) => (header?.['agent_of'] as { call_id: string }).call_id).sort()).toEqual([
    'a-0',
    'a-1',
    'a-2',
  ]);
  for (const header of headers) expect((header?.['agent_of'] as { session: string }).session).toBe(parent.session.id);
  // The session list shows the parent only: its children live in its folder.
  expect((await readdir(temp.sessionsRoot)).filter((name) => name.endsWith('.jsonl'))).toEqual([
    `${parent.session.id}.jsonl`,
  ]);

  // The next request is the same byte for byte from a session resumed from its file.
  const copy = path.join(temp.root, 'copy');
  await cp(temp.sessionsRoot, copy, { recursive: true, filter: (source) => !source.endsWith('.lock') });
  expect(parent.session.send('Anything else?').ok).toBe(true);
  await parent.session.idle();
  const original = server.requests.at(-1)!;
  const resumed = await open(server, { resume: parent.session.id, root: copy });
  expect(resumed.session.send('Anything else?').ok).toBe(true);
  await resumed.session.idle();
  expect(requestText(server.requests.at(-1)!)).toBe(requestText(original));
});

it('asks the parent view about a child write, naming the child, and goes on once approved', async () => {
  const server = await fixture({
    steps: [
      { tool_calls: [agentCall('w-1', 'Write the notes: task writer-7.', 'general')] },
      { text: ['The notes are written.'] },
    ],
    streams: [
      {
        match: 'task writer-7',
        steps: [
          {
            text: ['Writing the notes.'],
            tool_calls: [{ id: 'write-1', name: 'write_file', args: { path: 'notes.md', content: 'hello\n' } }],
          },
          { text: ['I wrote notes.md.'] },
        ],
      },
    ],
  });
  const parent = await open(server);
  parent.session.send('Get the notes written.');
  const asked = await waitForEvent(parent.recorder, (event) => event.type === 'tool_approval_requested');
  if (asked.type !== 'tool_approval_requested') throw new Error('not a question');
  expect(asked.parent_call_id).toBe('w-1');
  expect(asked.request.title).toContain('Agent general');
  expect(asked.request.title).toContain('notes.md');
  expect(parent.session.approve(asked.call_id, 'once').ok).toBe(true);
  const outcome = await parent.session.idle();
  expect(outcome?.status).toBe('completed');
  expect(await readFile(path.join(temp.workspace, 'notes.md'), 'utf8')).toBe('hello\n');
  const [done] = completions(parent.recorder.events);
  expect(done?.is_error).toBe(false);
  expect((done?.result as AgentEcho).changed).toEqual(['notes.md']);
});

it("fails the parent's call with the child's last words when the child's model fails", async () => {
  const server = await fixture({
    steps: [{ tool_calls: [agentCall('f-1', 'Read the folder delta/ (task failing-1).')] }, { text: ['It failed.'] }],
    streams: [
      {
        match: 'task failing-1',
        steps: [
          { text: ['Looking at delta first.'], tool_calls: [{ id: 'l-1', name: 'list_dir', args: { path: '.' } }] },
          { fault: { type: 'http_error', status: 400, message: 'The fixture refuses this one.' } },
        ],
      },
    ],
  });
  const parent = await open(server);
  parent.session.send('Look at delta.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const [done] = completions(parent.recorder.events);
  expect(done?.is_error).toBe(true);
  expect((done?.result as AgentEcho).ending).toBe('failed');
  const content = parent.session.toolContent('f-1');
  if (!content.ok) throw new Error(content.error);
  expect(content.value.content).toContain('The fixture refuses this one.');
  expect(content.value.content).toContain('Looking at delta first.');
});

it('stops a child that repeats the same calls, with its partial answer', async () => {
  const again = { text: ['Listing again.'], tool_calls: [{ name: 'list_dir', args: { path: '.' } }] };
  const server = await fixture({
    steps: [{ tool_calls: [agentCall('r-1', 'List the root (task looping-1).')] }, { text: ['It looped.'] }],
    streams: [{ match: 'task looping-1', steps: [again, again, again, again, again] }],
  });
  const parent = await open(server);
  parent.session.send('List the root.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const [done] = completions(parent.recorder.events);
  expect((done?.result as AgentEcho).ending).toBe('looping');
  expect((done?.result as AgentEcho).answer).toContain('Listing again.');
  expect(done?.is_error).toBe(true);
});

it('stops a child past its token budget, with what it had said', async () => {
  const server = await fixture({
    steps: [{ tool_calls: [agentCall('b-1', 'Read everything (task budget-1).')] }, { text: ['Over budget.'] }],
    streams: [
      {
        match: 'task budget-1',
        steps: [
          {
            text: ['First look.'],
            tool_calls: [{ name: 'list_dir', args: { path: '.' } }],
            usage: { input_tokens: 900, output_tokens: 200 },
          },
          { text: ['Never reached.'] },
        ],
      },
    ],
  });
  const parent = await open(server, { agents: { budget: { tokens: 1000 } } });
  parent.session.send('Read everything.');
  await parent.session.idle();
  const [done] = completions(parent.recorder.events);
  const echo = done?.result as AgentEcho;
  expect(echo.ending).toBe('budget');
  expect(echo.answer).toContain('over its budget of 1000');
  expect(echo.answer).toContain('First look.');
  expect(server.remaining()).toBe(1);
});

it('stops its children when the parent is stopped, and the parent ends', async () => {
  const server = await fixture({
    steps: [{ tool_calls: [agentCall('s-1', 'Wait forever (task stalling-1).')] }],
    streams: [
      {
        match: 'task stalling-1',
        steps: [{ text: ['Starting to wait.', 'never sent'], fault: { type: 'stall', after_text: 'Starting' } }],
      },
    ],
  });
  const parent = await open(server);
  parent.session.send('Start the waiting agent.');
  await waitForEvent(parent.recorder, (event) => event.type === 'tool_progress' && event.progress.agent !== undefined);
  await parent.session.stop();
  const outcome = await parent.session.idle();
  expect(outcome?.status).toBe('failed');
  const childFolder = path.join(parent.session.log.dir, 'agents');
  const [file] = (await readdir(childFolder)).filter((name) => name.endsWith('.jsonl'));
  const lines = await sessionLines(path.join(childFolder, file!));
  const ended = lines.find((line) => (line['event'] as { type?: string } | undefined)?.type === 'turn_failed');
  expect((ended?.['event'] as { aborted?: boolean }).aborted).toBe(true);
});

it('refuses an agent that names a tool or a model that does not exist, with the reason', async () => {
  await mkdir(path.join(temp.workspace, '.aethercodex', 'agents'), { recursive: true });
  await writeFile(
    path.join(temp.workspace, '.aethercodex', 'agents', 'digger.md'),
    '---\nname: digger\ndescription: Digs.\ntools: read_file, shovel\n---\nDig.\n',
  );
  const server = await fixture({
    steps: [
      {
        tool_calls: [
          agentCall('t-1', 'Dig.', 'digger'),
          { id: 't-2', name: 'agent', args: { task: 'Think.', model: 'nowhere:model' } },
        ],
      },
      { text: ['Neither ran.'] },
    ],
  });
  const parent = await open(server, { mode: 'auto' });
  parent.session.send('Dig and think.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const tool = parent.session.toolContent('t-1');
  const model = parent.session.toolContent('t-2');
  if (!tool.ok || !model.ok) throw new Error('no content');
  expect(tool.value.is_error).toBe(true);
  expect(tool.value.content).toContain('shovel');
  expect(model.value.is_error).toBe(true);
  expect(model.value.content).toContain('nowhere:model');
});

it("serialises two children's patches of one file: the later is checked against what the first wrote", async () => {
  await writeFile(path.join(temp.workspace, 'count.txt'), 'count = 1\n');
  const patch = (to: string) => ({
    name: 'patch_file',
    args: { path: 'count.txt', edits: [{ old_text: 'count = 1', new_text: `count = ${to}` }] },
  });
  const child = (marker: string, to: string) => ({
    match: marker,
    steps: [{ tool_calls: [patch(to)], wait_for_requests: 2 }, { text: [`Patched to ${to} (${marker}).`] }],
  });
  const server = await fixture({
    steps: [
      {
        tool_calls: [
          agentCall('p-1', 'Set the count to 2 (task patch-two).', 'general'),
          agentCall('p-2', 'Set the count to 3 (task patch-three).', 'general'),
        ],
      },
      { text: ['Done.'] },
    ],
    streams: [child('task patch-two', '2'), child('task patch-three', '3')],
  });
  const parent = await open(server, { mode: 'auto' });
  parent.session.send('Change the count twice.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const final = await readFile(path.join(temp.workspace, 'count.txt'), 'utf8');
  expect(['count = 2\n', 'count = 3\n']).toContain(final);
  // One child's patch applied; the other's old text was gone by the time its turn came.
  const changed = completions(parent.recorder.events).map((event) => (event.result as AgentEcho).changed);
  expect(changed.filter((files) => files.includes('count.txt'))).toHaveLength(1);
});

it('asks once before a workspace agent first runs, and again once its file changed', async () => {
  const folder = path.join(temp.workspace, '.aethercodex', 'agents');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, 'counter.md');
  await writeFile(file, '---\nname: counter\ndescription: Counts.\n---\nCount the files.\n');
  const answer = { text: ['Two files.'] };
  const server = await fixture({
    steps: [
      { tool_calls: [agentCall('c-1', 'Count (task count-1).', 'counter')] },
      { text: ['Counted.'] },
      { tool_calls: [agentCall('c-2', 'Count (task count-2).', 'counter')] },
      { text: ['Counted again.'] },
      { tool_calls: [agentCall('c-3', 'Count (task count-3).', 'counter')] },
      { text: ['Not counted.'] },
    ],
    streams: ['task count-1', 'task count-2', 'task count-3'].map((match) => ({ match, steps: [answer] })),
  });
  const home = path.join(temp.root, 'home');
  const parent = await open(server, { home });
  const questions = () => parent.recorder.events.filter((event) => event.type === 'tool_approval_requested');

  parent.session.send('Count the files.');
  const asked = await waitForEvent(parent.recorder, (event) => event.type === 'tool_approval_requested');
  if (asked.type !== 'tool_approval_requested') throw new Error('not a question');
  expect(asked.request.title).toBe('Run the agent "counter" defined by this workspace');
  expect(asked.request.detail).toContain('Count the files.');
  parent.session.approve(asked.call_id, 'once');
  await parent.session.idle();
  expect(parent.session.toolContent('c-1')).toMatchObject({ ok: true, value: { is_error: false } });

  // Approved as it is: the next call runs without a question.
  parent.session.send('Count again.');
  await parent.session.idle();
  expect(questions()).toHaveLength(1);
  expect(parent.session.toolContent('c-2')).toMatchObject({ ok: true, value: { is_error: false } });

  // Changed: asked again, and a refusal keeps it from running.
  await writeFile(file, '---\nname: counter\ndescription: Counts.\n---\nCount the files, and delete them.\n');
  parent.session.send('And once more.');
  await waitForEvent(
    parent.recorder,
    (event) => event.type === 'tool_approval_requested' && event.call_id !== asked.call_id,
  );
  const second = questions()[1];
  if (second?.type !== 'tool_approval_requested') throw new Error('not asked again');
  expect(second.request.detail).toContain('delete them');
  parent.session.approve(second.call_id, 'deny');
  await parent.session.idle();
  const refused = parent.session.toolContent('c-3');
  if (!refused.ok) throw new Error(refused.error);
  expect(refused.value.is_error).toBe(true);
  expect(refused.value.content).toContain('was not approved');
});

it('runs explore on the cheaper model configured for it, and closes that model with the child', async () => {
  const server = await fixture({
    steps: [{ tool_calls: [agentCall('e-1', 'Look around (task cheap-1).')] }, { text: ['Looked.'] }],
    streams: [{ match: 'task cheap-1', steps: [{ text: ['Nothing here.'] }] }],
  });
  let closed = 0;
  const cheap = () => {
    const adapter = modelFor('openai', server);
    return { ...adapter, stream: adapter.stream.bind(adapter), close: async () => void (closed += 1) };
  };
  const parent = await open(server, { agents: { exploreModel: 'openai:gpt-fixture', modelFor: cheap } });
  parent.session.send('Look around.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const child = server.requests.find((request) => JSON.stringify(request.body).includes('task cheap-1'));
  expect(child?.wire).toBe('openai');
  expect(server.requests.filter((request) => request.wire === 'anthropic')).toHaveLength(2);
  expect((completions(parent.recorder.events)[0]?.result as AgentEcho).model).toBe('openai:gpt-fixture');
  expect(closed).toBe(1);
});

it('opens a session as an agent, and a resume of it runs as the agent again', async () => {
  const server = await fixture({ steps: [{ text: ['Explored.'] }, { text: ['Explored again.'] }] });
  const first = await openAgentSession({
    workspace: temp.workspace,
    sessionsRoot: temp.sessionsRoot,
    model: modelFor('anthropic', server),
    sink: new StatusRecorder(),
    agents: {},
    as: 'explore',
  });
  first.session.send('What is here?');
  await first.session.idle();
  await first.close();
  const again = await openAgentSession({
    workspace: temp.workspace,
    sessionsRoot: temp.sessionsRoot,
    model: modelFor('anthropic', server),
    sink: new StatusRecorder(),
    agents: {},
    resume: first.session.id,
  });
  sessions.push(again);
  again.session.send('And now?');
  await again.session.idle();
  for (const request of server.requests) {
    expect(JSON.stringify(request.body['system'])).toContain('You explore the workspace to answer one question.');
    const tools = (request.body['tools'] as { name: string }[]).map((tool) => tool.name);
    expect(tools).not.toContain('write_file');
    expect(tools).not.toContain('agent');
  }
  expect(server.requests).toHaveLength(2);
});
