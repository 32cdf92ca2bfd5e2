import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { aether } from '../../test/aether-cli.ts';
import { modelCatalog } from './models.ts';
import type { PanelService } from './panel-service.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The sessions agents ran in, opened on their own: a parent whose `lead` agent starts an `explore`
// agent of its own. The session list and `aether sessions` show each under the one that started
// it; the panel opens either read-only, naming its parent and the call, and refuses to send to it;
// `aether export` takes one by its id. Real folders, the fixture model over HTTP, the CLI as a
// process.

let base: string;
let workspace: string;
let home: string;
let server: FixtureServer;
let service: PanelService | null = null;

const SCRIPT = {
  steps: [
    { tool_calls: [{ id: 'call-lead', name: 'agent', args: { agent: 'lead', task: 'Survey it (task outer)' } }] },
    { text: ['The lead is done.'] },
  ],
  streams: [
    {
      match: 'task outer',
      steps: [
        {
          tool_calls: [{ id: 'call-explore', name: 'agent', args: { agent: 'explore', task: 'List it (task inner)' } }],
        },
        { text: ['The explorer found notes.md.'] },
      ],
    },
    {
      match: 'task inner',
      steps: [
        { tool_calls: [{ id: 'call-list', name: 'list_dir', args: { path: '.' } }] },
        { text: ['Only notes.md is here.'] },
      ],
    },
  ],
};

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-agent-sessions-'));
  workspace = await realpath(await mkdtemp(path.join(base, 'work-')));
  home = path.join(base, 'home');
  await mkdir(path.join(home, 'agents'), { recursive: true });
  await writeFile(
    path.join(home, 'agents', 'lead.md'),
    '---\nname: lead\ndescription: Hands the reading to an explorer.\nnesting: true\n---\nAsk explore, then answer.\n',
  );
  await writeFile(path.join(workspace, 'notes.md'), '# Notes\n');
  server = await startFixtureServer({ script: SCRIPT });
  service = testPanelService({
    workspace,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted`, permission_mode: 'auto' },
    }),
    models: modelCatalog(),
    home,
  });
});

afterEach(async () => {
  await service?.close();
  service = null;
  await server.close();
  await rm(base, { recursive: true, force: true });
});

async function parentTurn(panel: PanelService): Promise<string> {
  const statuses: StatusEvent[] = [];
  panel.events.subscribe((message) => {
    if (message.event === 'status') statuses.push(message.payload);
  });
  const sent = await panel.handlers['turn:send']({ text: 'Survey the workspace' });
  if (!sent.ok) throw new Error(sent.error);
  await expect.poll(() => statuses.some((event) => event.type === 'turn_completed'), { timeout: 20_000 }).toBe(true);
  return (await panel.handlers['panel:info']()).session!.id;
}

function ok<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

it('lists agents under their parent, opens one read-only with its origin, and goes back to the parent', async () => {
  const panel = service!;
  const parent = await parentTurn(panel);

  const listed = ok(await panel.handlers['session:list']());
  expect(listed.map((summary) => summary.id)).toEqual([parent]);
  const lead = listed[0]!.agents?.[0];
  expect(lead).toMatchObject({ agent: 'lead', title: 'Survey it (task outer)' });
  const explore = lead!.agents?.[0];
  expect(explore).toMatchObject({ agent: 'explore', title: 'List it (task inner)' });

  // The explorer, two levels down: its transcript, its origin, nothing of the live session.
  const opened = ok(await panel.handlers['session:open']({ id: explore!.id }));
  expect(opened.summary.agent_of).toEqual({
    session: lead!.id,
    call_id: 'call-explore',
    agent: 'explore',
    parent_title: 'Survey it (task outer)',
  });
  expect(opened.events.some((event) => event.type === 'tool_completed' && event.name === 'list_dir')).toBe(true);
  // What the model received for the child's own call answers from the child's file.
  expect(ok(await panel.handlers['tool:content']({ call_id: 'call-list' })).content).toContain('notes.md');

  // A message is refused, kept in the box, and says where to go on.
  const refused = await panel.handlers['turn:send']({ text: 'And now?' });
  expect(refused).toEqual({ ok: false, error: expect.stringContaining("agent explore's") });
  expect(refused.ok ? '' : refused.error).toContain('Go back to its parent');
  expect(await panel.handlers['rewind:preview']({ target: 'call-list', mode: 'code' })).toEqual({
    ok: false,
    error: expect.stringContaining(`go back to its parent session (${lead!.id})`),
  });

  // The lead: its own agent card's transcript is read from its folder of agents.
  const leadView = ok(await panel.handlers['session:open']({ id: lead!.id }));
  expect(leadView.summary.agent_of).toMatchObject({ session: parent, call_id: 'call-lead', agent: 'lead' });
  expect(leadView.summary.agent_of?.parent_title).toBe('Survey the workspace');
  const inner = ok(await panel.handlers['agent:transcript']({ parent: lead!.id, call_id: 'call-explore' }));
  expect(inner.some((event) => event.type === 'assistant_message')).toBe(true);

  // Back to the parent: the live session again, which takes messages.
  const back = ok(await panel.handlers['session:open']({ id: parent }));
  expect(back.summary.agent_of).toBeUndefined();
  expect(back.events.some((event) => event.type === 'tool_completed' && event.call_id === 'call-lead')).toBe(true);
  server.load({ steps: [{ text: ['Still here.'] }] });
  expect((await panel.handlers['turn:send']({ text: 'Thanks' })).ok).toBe(true);
});

it('prints agents under their parent in `aether sessions`, exports one by its id, and will not delete it alone', async () => {
  const parent = await parentTurn(service!);
  const [summary] = ok(await service!.handlers['session:list']());
  const lead = summary!.agents![0]!;
  const explore = lead.agents![0]!;
  await service!.close();
  service = null;
  const sessions = path.join(base, 'sessions');

  const listed = await aether(['sessions', '--sessions', sessions]);
  expect(listed.code).toBe(0);
  const lines = listed.stdout.split('\n');
  const at = (text: string) => lines.findIndex((line) => line.includes(text));
  expect(at(parent)).toBeGreaterThanOrEqual(0);
  expect(lines[at(lead.id)]).toBe(`  ↳ ${lead.id}  agent lead  Survey it (task outer)`);
  expect(lines[at(explore.id)]).toBe(`    ↳ ${explore.id}  agent explore  List it (task inner)`);
  expect(at(parent)).toBeLessThan(at(lead.id));
  expect(at(lead.id)).toBeLessThan(at(explore.id));

  const exported = await aether(['export', explore.id, '--sessions', sessions]);
  expect(exported.code).toBe(0);
  expect(exported.stdout).toContain(`# List it (task inner)`);
  expect(exported.stdout).toContain(
    `Agent \`explore\`'s session, started by session \`${lead.id}\` (its call \`call-explore\`)`,
  );
  expect(exported.stdout).toContain('Only notes.md is here.');
  expect(exported.stdout).toContain('## Task given by the parent\n\nList it (task inner)');
  const page = await aether(['export', lead.id, '--html', '--sessions', sessions]);
  expect(page.stdout).toContain(`Agent <code>lead</code>'s session, started by session <code>${parent}</code>`);

  const deleted = await aether(['sessions', '--delete', explore.id, '--sessions', sessions]);
  expect(deleted.code).toBe(1);
  expect(deleted.stderr).toContain(`it is deleted with that session, not on its own`);
  expect(deleted.stderr).toContain(parent);
  const resumed = await aether(['run', '--resume', explore.id, '--sessions', sessions, '--model', 'demo', 'Go on']);
  expect(resumed.code).toBe(2);
  expect(resumed.stderr).toContain(`Session ${explore.id} is an agent's session, kept with session ${parent}`);
  const missing = await aether(['export', '20990101-000000-abcdef', '--sessions', sessions]);
  expect(missing.code).toBe(1);
});
