import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL, DEFAULT_RULES, PermissionGate, RefuseApprover } from './permission-gate.ts';
import { ToolRegistry } from './registry.ts';
import { defineTool } from './tool.ts';

// A call's arguments are checked against the tool's schema and described once, however many parts
// of the pipeline use them (the card's description, the approval question, the run, a nested
// call's dispatch): an MCP tool's schema check is an ajv validation, the largest cost the pipeline
// adds to a call.

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-registry-once-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function countingTool(counts: { checked: number; described: number }) {
  return defineTool({
    name: 'counted',
    model: {
      description: 'Counts how often its arguments are checked and described.',
      schema: z.object({ n: z.number() }).superRefine(() => {
        counts.checked += 1;
      }),
      render: (n) => String(n),
    },
    gate: { kind: 'exec' },
    card: {
      describe: (args) => {
        counts.described += 1;
        return { title: `count ${args.n}`, subtitle: String(args.n) };
      },
    },
    execute: async (args) => args.n,
  });
}

describe('one check and one description per call', () => {
  it('holds for a top-level call that asks, with the description in the event and the question', async () => {
    const counts = { checked: 0, described: 0 };
    const titles: string[] = [];
    const gate = new PermissionGate(
      DEFAULT_RULES,
      new RefuseApprover((question) => (titles.push(question.request.title), 'not now')),
    );
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({ workspace, sessionDir, sink, gate });
    registry.register(countingTool(counts));
    const outcome = await registry.call({ callId: 'c1', name: 'counted', args: { n: 7 } });
    expect(outcome.isError).toBe(true);
    expect(counts).toEqual({ checked: 1, described: 1 });
    expect(titles).toEqual(['count 7']);
    expect(sink.ofType('tool_started')[0]?.description).toMatchObject({ title: 'count 7', subtitle: '7' });
  });

  it('holds for a nested call, whose dispatch carries the description', async () => {
    const counts = { checked: 0, described: 0 };
    const sink = new StatusRecorder();
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
    const registry = new ToolRegistry({ workspace, sessionDir, sink, gate });
    registry.register(countingTool(counts));
    const outcome = await registry.call({ callId: 'n1', name: 'counted', args: { n: 3 }, parent: 'p1' });
    expect(outcome.content).toBe('3');
    expect(counts).toEqual({ checked: 1, described: 1 });
    expect(sink.ofType('tool_code_dispatch')[0]?.description).toMatchObject({ title: 'count 3' });
  });
});
