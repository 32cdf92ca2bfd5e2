import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL, PendingApprovals, PermissionGate } from './permission-gate.ts';
import { ToolRegistry } from './registry.ts';
import { defineTool } from './tool.ts';

// A nested call tells the tool that dispatched it when it starts waiting for the person's approval
// and when the answer comes (DispatchOptions.onApprovalWait), so run_code can stop its clock.

let root: string;
let log: string[];
let registry: ToolRegistry;

/** Dispatches one nested call, logging the wait it is told about. */
const outer = defineTool({
  name: 'outer',
  model: {
    description: 'Dispatches one nested call.',
    schema: z.object({ name: z.string() }),
    render: (result: string) => result,
  },
  gate: { kind: 'code' },
  async execute(args, ctx) {
    const nested = await ctx.dispatch(
      args.name,
      {},
      {
        onApprovalWait: () => {
          log.push('waiting');
          return () => log.push('answered');
        },
      },
    );
    return nested.content;
  },
});

/** A write: the gate asks before it runs. */
const touch = defineTool({
  name: 'touch',
  model: {
    description: 'Pretends to write.',
    schema: z.object({}),
    render: (result) => result,
  },
  gate: { kind: 'write' },
  async execute() {
    log.push('ran');
    return 'touched';
  },
});

/** A read the gate allows, which asks a question of its own while it runs (as ssh_exec asks about a host key). */
const askMidRun = defineTool({
  name: 'ask_mid_run',
  model: {
    description: 'Asks while running.',
    schema: z.object({}),
    render: (result: string) => result,
  },
  gate: { kind: 'read' },
  async execute(_args, ctx) {
    log.push('ran');
    const allowed = await ctx.requestApproval({
      title: 'Trust this?',
      detail: 'a question found mid-run',
      scope: 'read',
    });
    return allowed ? 'trusted' : 'refused';
  },
});

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-approval-wait-')));
  log = [];
  const approvals: PendingApprovals = new PendingApprovals(
    (question) => {
      log.push('asked');
      setImmediate(() => approvals.answer(question.callId, 'once'));
    },
    () => undefined,
  );
  const gate = new PermissionGate({ ...ALLOW_ALL, write: 'ask' }, approvals);
  registry = new ToolRegistry({ workspace: root, sessionDir: root, sink: new StatusRecorder(), gate });
  registry.register(outer, touch, askMidRun);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('approval waits of nested calls', () => {
  it('are reported to the dispatching tool from the question until the answer', async () => {
    const outcome = await registry.call({ callId: 'c1', name: 'outer', args: { name: 'touch' } });
    expect(outcome.content).toBe('touched');
    expect(log).toEqual(['waiting', 'asked', 'answered', 'ran']);
  });

  it('include a question the nested tool asks while it runs', async () => {
    const outcome = await registry.call({ callId: 'c1', name: 'outer', args: { name: 'ask_mid_run' } });
    expect(outcome.content).toBe('trusted');
    expect(log).toEqual(['ran', 'waiting', 'asked', 'answered']);
  });

  it('are not reported for a call the gate allows without asking', async () => {
    registry.gate.setRule('write', 'allow');
    await registry.call({ callId: 'c1', name: 'outer', args: { name: 'touch' } });
    expect(log).toEqual(['ran']);
  });
});
