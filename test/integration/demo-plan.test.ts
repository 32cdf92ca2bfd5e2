import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openAgentSession, type OpenedAgentSession } from '../../main/agent/open-agent-session.ts';
import { applyPermissions } from '../../main/agent/session-permissions.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { PLAN_MODE_LINE } from '../../protocol/plan.ts';

// The demo model in plan mode, through the front door: the session tells it so in its system
// prompt (the panel's gate and the headless one alike), it proposes its tour as a plan instead of
// being refused a write, and carries it out once the plan is approved in a mode that writes.

let base: string;
let workspace: string;
const opened: OpenedAgentSession[] = [];

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-demo-plan-'));
  workspace = await realpath(await mkdtemp(path.join(base, 'ws-')));
});

afterEach(async () => {
  for (const one of opened.splice(0)) await one.close();
  await rm(base, { recursive: true, force: true });
});

async function open(headless: boolean): Promise<OpenedAgentSession & { recorder: StatusRecorder }> {
  const recorder = new StatusRecorder();
  const one = await openAgentSession({
    workspace,
    sessionsRoot: path.join(base, 'sessions'),
    model: 'demo',
    modelOptions: { demoChunkDelayMs: 0 },
    sink: recorder,
    permissions: { mode: 'plan' },
    headless,
  });
  opened.push(one);
  return { ...one, recorder };
}

it('proposes the tour as a plan in plan mode, and writes the note once the plan is approved in auto', async () => {
  const { session, recorder } = await open(false);
  expect(session.systemPrompt).toContain(PLAN_MODE_LINE);
  session.send('Show me the demo');
  expect(await session.idle()).toMatchObject({ status: 'completed', stopReason: 'plan_proposed' });
  const proposed = recorder.ofType('tool_completed').find((event) => event.name === 'plan_propose');
  expect(proposed).toBeDefined();
  expect(await readdir(workspace)).toEqual([]);
  const said = recorder
    .ofType('assistant_message')
    .map((event) => event.text)
    .join(' ');
  expect(said).toContain('plan mode');
  expect(said).not.toContain('--allow write');

  // Approve and start, in auto: the host switches the mode first.
  applyPermissions(session.gate, { mode: 'auto' });
  expect(session.systemPrompt).not.toContain(PLAN_MODE_LINE);
  const plan = String(proposed?.result?.['plan']);
  expect(session.approvePlan(proposed!.call_id, plan, [])).toMatchObject({ ok: true });
  expect((await session.idle())?.status).toBe('completed');
  expect(await readFile(path.join(workspace, 'AETHER_DEMO.md'), 'utf8')).toContain('patched by the demo model');
});

it('tells a headless session in plan mode so too', async () => {
  const { session } = await open(true);
  expect(session.systemPrompt).toContain(PLAN_MODE_LINE);
  session.send('Show me the demo');
  expect(await session.idle()).toMatchObject({ stopReason: 'plan_proposed' });
  expect(await readdir(workspace)).toEqual([]);
});
