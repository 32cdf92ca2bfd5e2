import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { AgentEcho } from '../../protocol/agents.ts';
import type { StatusEvent, ToolCompletedEvent } from '../../protocol/events.ts';
import { openAgentSession, type OpenedAgentSession } from '../../main/agent/open-agent-session.ts';
import type { FixtureScriptInput, FixtureStepInput } from '../../main/model/fixture-script.ts';
import { startFixtureServer, type FixtureServer } from '../../main/model/fixture-server.ts';
import { turnChanges } from '../../main/host/changes-panel.ts';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../../main/tools/checkpoints/checkpoint-store.ts';
import { applyRewind, previewRewind } from '../../main/host/rewind-panel.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { conversationOf, modelFor } from '../agent-kit.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// What a parent's turn holds of its children. A child's writes are recorded in its parent's
// checkpoints, under the parent's `agent` call: the parent's rewind takes them back like its own,
// and the parent's Changes card lists them, marked with the agent that made them. The built-in
// review is handed the turn's changes; a child's tools (todo_write too) are what it was given.
// Real folders, the fixture model over HTTP, the panel's requests.

const temp = useTempWorkspace('aether-agent-children-');
const servers: FixtureServer[] = [];
const sessions: OpenedAgentSession[] = [];

afterEach(async () => {
  for (const opened of sessions.splice(0)) await opened.close();
  for (const server of servers.splice(0)) await server.close();
});

async function openParent(script: FixtureScriptInput, home?: string, checkpointsOff = false) {
  const server = await startFixtureServer({ script });
  servers.push(server);
  const recorder = new StatusRecorder();
  const opened = await openAgentSession({
    workspace: temp.workspace,
    sessionsRoot: temp.sessionsRoot,
    model: modelFor('anthropic', server),
    sink: recorder,
    permissions: { mode: 'auto' },
    agents: home ? { home } : {},
    ...(checkpointsOff ? { checkpoints: () => ({ ...DEFAULT_CHECKPOINT_SETTINGS, enabled: false }) } : {}),
  });
  sessions.push(opened);
  return { ...opened, recorder, server };
}

/** The parent hands one task (marked `task MARKER`) to `agent` in call `id`, its child takes `child`'s steps, then the parent ends. */
function delegating(id: string, agent: string, marker: string, child: FixtureStepInput[]): FixtureScriptInput {
  return {
    steps: [
      { tool_calls: [{ id, name: 'agent', args: { task: `Work on it (task ${marker}).`, agent } }] },
      { text: ['The agent is done.'] },
    ],
    streams: [{ match: `task ${marker}`, steps: child }],
  };
}

function agentEnds(events: readonly StatusEvent[]): ToolCompletedEvent[] {
  return events.filter(
    (event): event is ToolCompletedEvent => event.type === 'tool_completed' && event.name === 'agent',
  );
}

function turnOf(events: readonly StatusEvent[]): string {
  const user = events.find((event) => event.type === 'user_message');
  if (user?.type !== 'user_message') throw new Error('no message');
  return user.turn_id;
}

const exists = (file: string) =>
  access(path.join(temp.workspace, file)).then(
    () => true,
    () => false,
  );
const text = (file: string) => readFile(path.join(temp.workspace, file), 'utf8');

it("rewinds a child's writes, patches and commands with the parent's agent call, and lists them as the agent's", async () => {
  await writeFile(path.join(temp.workspace, 'a.txt'), 'one\ntwo\n');
  const parent = await openParent(
    delegating('g-1', 'general', 'edit-1', [
      { tool_calls: [{ id: 'w', name: 'write_file', args: { path: 'b.txt', content: 'new\n' } }] },
      {
        tool_calls: [
          { id: 'p', name: 'patch_file', args: { path: 'a.txt', edits: [{ old_text: 'two', new_text: 'TWO' }] } },
        ],
      },
      { tool_calls: [{ id: 'x', name: 'exec', args: { command: 'printf made > c.txt' } }] },
      { text: ['Wrote b.txt, patched a.txt, made c.txt.'] },
    ]),
  );
  parent.session.send('Have an agent edit the files.');
  expect((await parent.session.idle())?.status).toBe('completed');
  expect(await text('a.txt')).toBe('one\nTWO\n');
  expect(await text('c.txt')).toBe('made');

  // The agent call took a checkpoint before its child ran, and its echo names all the child changed.
  const [done] = agentEnds(parent.recorder.events);
  expect(done?.checkpoint?.id).toMatch(/^cp-/);
  expect((done?.result as AgentEcho).changed).toEqual(['a.txt', 'b.txt', 'c.txt']);
  // The child keeps no store of its own: its records are its parent's.
  await expect(access(path.join(parent.session.log.dir, 'agents', 'checkpoints'))).rejects.toThrow();

  // The Changes card of the parent's turn lists the child's files, marked as the agent's.
  const turn = turnOf(parent.recorder.events);
  const changes = await turnChanges(parent.session, turn);
  expect(changes.files.map((file) => [file.path, file.status, file.agents])).toEqual([
    ['a.txt', 'modified', ['general']],
    ['b.txt', 'added', ['general']],
    ['c.txt', 'added', ['general']],
  ]);
  expect(changes.files[0]?.diff).toContain('+TWO');

  // Rewinding the parent's agent card asks nothing (the child's changes are the agent's) and takes them back.
  const preview = await previewRewind(parent.session, { target: 'g-1', mode: 'code' });
  expect(preview.conflicts).toEqual([]);
  expect(preview.remove.sort()).toEqual(['b.txt', 'c.txt']);
  expect(preview.restore).toEqual(['a.txt']);
  const rewound = await applyRewind(parent.session, temp.sessionsRoot, { target: 'g-1', mode: 'code' });
  expect(rewound.removed.sort()).toEqual(['b.txt', 'c.txt']);
  expect(await text('a.txt')).toBe('one\ntwo\n');
  expect(await exists('b.txt')).toBe(false);
  expect(await exists('c.txt')).toBe(false);

  // The same from the person's message (the turn): back to before the agent, nothing to ask.
  const undo = await applyRewind(parent.session, temp.sessionsRoot, { target: rewound.undo!, mode: 'code' });
  expect(undo.restored.sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  const again = await applyRewind(parent.session, temp.sessionsRoot, { target: turn, mode: 'code' });
  expect(again.kept).toEqual([]);
  expect(await text('a.txt')).toBe('one\ntwo\n');
  expect(await exists('b.txt')).toBe(false);
});

it("rewinds two children that wrote side by side without asking, and marks each file with its child's call", async () => {
  const child = (marker: string, file: string) => ({
    match: marker,
    steps: [
      // Both children's writes run while the other's call is open.
      { tool_calls: [{ name: 'write_file', args: { path: file, content: `${marker}\n` } }], wait_for_requests: 2 },
      { text: [`Wrote ${file}.`] },
    ],
  });
  const parent = await openParent({
    steps: [
      {
        tool_calls: [
          { id: 'l-1', name: 'agent', args: { task: 'Write left.txt (task left-1).', agent: 'general' } },
          { id: 'r-1', name: 'agent', args: { task: 'Write right.txt (task right-1).', agent: 'general' } },
        ],
      },
      { text: ['Both wrote.'] },
    ],
    streams: [child('task left-1', 'left.txt'), child('task right-1', 'right.txt')],
  });
  parent.session.send('Write both files at once.');
  expect((await parent.session.idle())?.status).toBe('completed');
  expect(parent.server.maxOpen).toBeGreaterThanOrEqual(2);
  const ends = agentEnds(parent.recorder.events);
  expect(Object.fromEntries(ends.map((end) => [end.call_id, (end.result as AgentEcho).changed]))).toEqual({
    'l-1': ['left.txt'],
    'r-1': ['right.txt'],
  });
  const changes = await turnChanges(parent.session, turnOf(parent.recorder.events));
  expect(changes.files.map((file) => [file.path, file.agents])).toEqual([
    ['left.txt', ['general']],
    ['right.txt', ['general']],
  ]);

  const preview = await previewRewind(parent.session, { target: 'l-1', mode: 'code' });
  expect(preview.conflicts).toEqual([]);
  await applyRewind(parent.session, temp.sessionsRoot, { target: 'l-1', mode: 'code' });
  expect(await exists('left.txt')).toBe(false);
  expect(await exists('right.txt')).toBe(false);
});

it('still asks about a file the person changed after the agent ended', async () => {
  const parent = await openParent(
    delegating('g-2', 'general', 'notes-1', [
      { tool_calls: [{ name: 'write_file', args: { path: 'notes.md', content: 'agent\n' } }] },
      { text: ['Wrote notes.md.'] },
    ]),
  );
  parent.session.send('Get notes written.');
  await parent.session.idle();
  await writeFile(path.join(temp.workspace, 'notes.md'), 'mine\n');
  const preview = await previewRewind(parent.session, { target: 'g-2', mode: 'code' });
  expect(preview.conflicts).toEqual([{ path: 'notes.md', action: 'remove' }]);
  await applyRewind(parent.session, temp.sessionsRoot, {
    target: 'g-2',
    mode: 'code',
    choices: { 'notes.md': 'keep' },
  });
  expect(await text('notes.md')).toBe('mine\n');
});

it('takes no checkpoint around a read-only agent', async () => {
  const parent = await openParent(delegating('e-1', 'explore', 'look-1', [{ text: ['Nothing here.'] }]));
  parent.session.send('Look around.');
  await parent.session.idle();
  const [done] = agentEnds(parent.recorder.events);
  expect(done?.is_error).toBe(false);
  expect(done?.checkpoint).toBeUndefined();
});

function requestsWith(server: FixtureServer, marker: string) {
  return server.requests.filter((request) => JSON.stringify(request.body).includes(marker));
}

function toolNames(body: Record<string, unknown>): string[] {
  return (body['tools'] as { name: string }[]).map((tool) => tool.name);
}

it("hands the review agent the diff of the turn's changes so far, the parent's and its children's", async () => {
  await writeFile(path.join(temp.workspace, 'app.js'), 'const port = 80;\nlisten(port);\n');
  const parent = await openParent({
    steps: [
      {
        tool_calls: [
          { name: 'patch_file', args: { path: 'app.js', edits: [{ old_text: 'port = 80', new_text: 'port = 8080' }] } },
        ],
      },
      { tool_calls: [{ name: 'agent', args: { task: 'Add the readme (task readme-1).', agent: 'general' } }] },
      { tool_calls: [{ name: 'agent', args: { task: 'Review the work (task review-1).', agent: 'review' } }] },
      { text: ['Reviewed.'] },
    ],
    streams: [
      {
        match: 'task readme-1',
        steps: [
          { tool_calls: [{ name: 'write_file', args: { path: 'README.md', content: '# App\nRuns on 8080.\n' } }] },
          { text: ['Wrote README.md.'] },
        ],
      },
      { match: 'task review-1', steps: [{ text: ['- No findings.'] }] },
    ],
  });
  parent.session.send('Move to port 8080, document it, and have it reviewed.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const [review] = requestsWith(parent.server, 'task review-1');
  if (!review) throw new Error('the review agent sent no request');
  const task = conversationOf(review.body).find((entry) => entry.kind === 'user');
  const given = task?.kind === 'user' ? task.text : '';
  expect(given).toContain('Review the work (task review-1).');
  expect(given).toContain('- app.js: modified, +1 −1');
  expect(given).toContain('- README.md: added, +2 −0 (by agent general)');
  expect(given).toContain('+const port = 8080;');
  expect(given).toContain('-const port = 80;');
  expect(given).toContain('+Runs on 8080.');
  // The review itself is read-only: no checkpoint around it, and no write tool offered.
  expect(toolNames(review.body)).not.toContain('write_file');
});

it("offers a child only the tools it was given: without todo_write it cannot keep a list, with it the list is the child's own", async () => {
  const list = [{ id: 'look', text: 'Look at the code', status: 'in_progress' }];
  const parent = await openParent({
    steps: [
      {
        tool_calls: [
          {
            id: 'n-1',
            name: 'agent',
            args: { task: 'Read only (task narrow-1).', agent: 'general', tools: ['read_file'] },
          },
        ],
      },
      { tool_calls: [{ id: 'o-1', name: 'agent', args: { task: 'Plan it (task own-1).', agent: 'general' } }] },
      { text: ['Both ran.'] },
    ],
    streams: [
      {
        match: 'task narrow-1',
        steps: [
          { tool_calls: [{ id: 't-1', name: 'todo_write', args: { todos: list } }] },
          { text: ['I could not keep a list.'] },
        ],
      },
      {
        match: 'task own-1',
        steps: [{ tool_calls: [{ id: 't-2', name: 'todo_write', args: { todos: list } }] }, { text: ['Listed.'] }],
      },
    ],
  });
  parent.session.send('Try both agents.');
  expect((await parent.session.idle())?.status).toBe('completed');

  const [narrow] = requestsWith(parent.server, 'task narrow-1');
  expect(toolNames(narrow!.body)).toEqual(['read_file']);
  const [own] = requestsWith(parent.server, 'task own-1');
  expect(toolNames(own!.body)).toContain('todo_write');
  // A child's plan would reach no person: plan_propose stays the parent's.
  expect(toolNames(own!.body)).not.toContain('plan_propose');

  // The narrowed child's call was refused as a tool it does not have.
  const narrowAnswer = JSON.stringify(requestsWith(parent.server, 'task narrow-1')[1]?.body);
  expect(narrowAnswer).toContain('Unknown tool \\"todo_write\\"');

  // The other child's list is its own: in its file, not in the parent's list nor its next request.
  expect(parent.session.todoList()).toEqual([]);
  const childFolder = path.join(parent.session.log.dir, 'agents');
  const ends = agentEnds(parent.recorder.events);
  const ownSession = (ends.find((end) => end.call_id === 'o-1')?.result as AgentEcho).session;
  const childLog = await readFile(path.join(childFolder, `${ownSession}.jsonl`), 'utf8');
  expect(childLog).toContain('"type":"todos"');
  const last = parent.server.requests
    .filter((request) => JSON.stringify(request.body).includes('Try both agents.'))
    .at(-1);
  expect(JSON.stringify(last?.body)).not.toContain('Look at the code');
});

it("rewinds what a child's own child wrote, and marks it with the agent the parent started", async () => {
  const home = path.join(temp.root, 'home');
  await mkdir(path.join(home, 'agents'), { recursive: true });
  await writeFile(
    path.join(home, 'agents', 'lead.md'),
    '---\nname: lead\ndescription: Hands work on.\nnesting: true\n---\nHand the work to a general agent.\n',
  );
  const parent = await openParent(
    {
      steps: [
        { tool_calls: [{ id: 'lead-1', name: 'agent', args: { task: 'Lead it (task lead-1).', agent: 'lead' } }] },
        { text: ['The lead is done.'] },
      ],
      streams: [
        {
          match: 'task lead-1',
          steps: [
            { tool_calls: [{ name: 'agent', args: { task: 'Write deep.txt (task deep-1).', agent: 'general' } }] },
            { text: ['My agent wrote deep.txt.'] },
          ],
        },
        {
          match: 'task deep-1',
          steps: [
            { tool_calls: [{ name: 'write_file', args: { path: 'deep.txt', content: 'deep\n' } }] },
            { text: ['Wrote deep.txt.'] },
          ],
        },
      ],
    },
    home,
  );
  parent.session.send('Lead the work.');
  expect((await parent.session.idle())?.status).toBe('completed');
  expect(await text('deep.txt')).toBe('deep\n');
  const [done] = agentEnds(parent.recorder.events);
  expect((done?.result as AgentEcho).changed).toEqual(['deep.txt']);
  const changes = await turnChanges(parent.session, turnOf(parent.recorder.events));
  expect(changes.files.map((file) => [file.path, file.agents])).toEqual([['deep.txt', ['lead']]]);
  const preview = await previewRewind(parent.session, { target: 'lead-1', mode: 'code' });
  expect(preview.conflicts).toEqual([]);
  await applyRewind(parent.session, temp.sessionsRoot, { target: 'lead-1', mode: 'code' });
  expect(await exists('deep.txt')).toBe(false);
});

it("tells the review agent when checkpoints are off that the turn's changes were not recorded", async () => {
  const parent = await openParent(
    {
      steps: [
        { tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x\n' } }] },
        { tool_calls: [{ name: 'agent', args: { task: 'Review (task review-off).', agent: 'review' } }] },
        { text: ['Reviewed.'] },
      ],
      streams: [{ match: 'task review-off', steps: [{ text: ['- No findings.'] }] }],
    },
    undefined,
    true,
  );
  parent.session.send('Write x and have it reviewed.');
  expect((await parent.session.idle())?.status).toBe('completed');
  const [review] = requestsWith(parent.server, 'task review-off');
  expect(JSON.stringify(review?.body['messages'])).toContain(
    'Checkpoints are off, so the changes of this turn were not recorded',
  );
});
