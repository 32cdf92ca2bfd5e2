import { readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { z } from 'zod';
import type { ApprovalQuestion, GateRules } from './permission-gate.ts';
import { ALLOW_ALL, DEFAULT_RULES, PendingApprovals, PermissionGate, RefuseApprover } from './permission-gate.ts';
import { blockPolicy, spillPolicy } from './policies.ts';
import { ToolRegistry } from './registry.ts';
import { declareEcho, defineTool, ToolError } from './tool.ts';
import { readFileEchoSchema } from '../../protocol/echo.ts';
import { StatusRecorder } from '../status/sink.ts';

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-registry-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Trace {
  executed: number;
  rendered: number;
}

function echoTool(trace: Trace) {
  return defineTool({
    name: 'echo',
    model: {
      description: 'Echoes text.',
      schema: z.object({ text: z.string(), fail: z.boolean().optional(), path: z.string().optional() }),
      render(result: { text: string }) {
        trace.rendered += 1;
        return result.text;
      },
    },
    gate: {
      kind: 'read',
      paths: (args) => (args.path ? [{ path: args.path, access: 'read' }] : []),
    },
    async execute(args, ctx) {
      trace.executed += 1;
      if (args.fail) throw new ToolError(`echo failed on purpose: ${args.text}`);
      ctx.report({ text: 'partial', cut_bytes: 0, total_bytes: 7 });
      return { text: args.text, resolved: args.path ? ctx.resolvedPath(args.path) : null };
    },
  });
}

const writeTool = (trace: Trace) =>
  defineTool({
    name: 'touch',
    model: {
      description: 'Pretends to write.',
      schema: z.object({ path: z.string() }),
      render: (result: { wrote: string }) => `wrote ${result.wrote}`,
    },
    gate: {
      kind: 'write',
      paths: (args) => [{ path: args.path, access: 'write' }],
    },
    card: {
      describe: (args) => ({ title: `Write ${args.path}`, subtitle: args.path, detail: args.path }),
    },
    async execute(args) {
      trace.executed += 1;
      return { wrote: args.path };
    },
  });

function setup(
  options: { rules?: GateRules; approver?: PendingApprovals; policies?: Parameters<typeof blockPolicy>[0] } = {},
) {
  const trace: Trace = { executed: 0, rendered: 0 };
  const sink = new StatusRecorder();
  const approver = options.approver ?? new RefuseApprover(() => 'no one to ask');
  const gate = new PermissionGate(options.rules ?? ALLOW_ALL, approver);
  const postPolicies = options.policies ? [blockPolicy(options.policies), spillPolicy()] : undefined;
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, ...(postPolicies ? { postPolicies } : {}) });
  registry.register(echoTool(trace), writeTool(trace));
  return { registry, sink, trace, gate };
}

describe('ToolRegistry pipeline', () => {
  it('runs a call and emits tool_started then tool_completed with the echo', async () => {
    const { registry, sink } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 'hello' } });
    expect(outcome).toMatchObject({ content: 'hello', isError: false });
    expect(sink.events.map((event) => event.type)).toEqual(['tool_started', 'tool_progress', 'tool_completed']);
    expect(sink.ofType('tool_completed')[0]).toMatchObject({
      call_id: 'c1',
      name: 'echo',
      is_error: false,
      result: { kind: 'text', text: 'hello' },
    });
    expect(typeof sink.ofType('tool_completed')[0]!.execution_time).toBe('number');
  });

  it('keeps a live report that its sink fails to deliver from becoming an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const sink = {
        emit: async (event: { type: string }) =>
          event.type === 'tool_progress' ? Promise.reject(new Error('window gone')) : undefined,
      };
      const registry = new ToolRegistry({
        workspace,
        sessionDir,
        sink,
        gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => '')),
      });
      registry.register(echoTool({ executed: 0, rendered: 0 }));
      const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 'hi' } });
      expect(outcome).toMatchObject({ isError: false, content: 'hi' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('turns an unknown tool into error content naming the known tools', async () => {
    const { registry, sink } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'nope', args: {} });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('Unknown tool "nope"');
    expect(outcome.content).toContain('echo, touch');
    expect(sink.ofType('tool_completed')[0]?.is_error).toBe(true);
  });

  it('rejects invalid arguments without running the tool', async () => {
    const { registry, trace } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 3 } });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/Invalid arguments for echo: text: /);
    expect(trace.executed).toBe(0);
  });

  it('turns a throw into error content without calling the renderer', async () => {
    const { registry, trace } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 'x', fail: true } });
    expect(outcome).toMatchObject({ isError: true, content: 'echo failed on purpose: x' });
    expect(trace.rendered).toBe(0);
  });

  it('never runs a tool the gate denies', async () => {
    const { registry, trace } = setup({ rules: { ...ALLOW_ALL, write: 'deny' } });
    const outcome = await registry.call({ callId: 'c1', name: 'touch', args: { path: 'a.txt' } });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('not allowed');
    expect(trace.executed).toBe(0);
  });

  it('refuses a path outside the workspace before the gate or the tool', async () => {
    const asked: ApprovalQuestion[] = [];
    const approver = new PendingApprovals(
      (question) => asked.push(question),
      () => undefined,
    );
    const { registry, trace } = setup({ rules: DEFAULT_RULES, approver });
    const outcome = await registry.call({ callId: 'c1', name: 'touch', args: { path: '../escape.txt' } });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('outside the workspace');
    expect(asked).toHaveLength(0);
    expect(trace.executed).toBe(0);
  });

  it('refuses a symlink that points out of the workspace', async () => {
    await symlink(root, path.join(workspace, 'out'));
    const { registry, trace } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 'x', path: 'out/session' } });
    expect(outcome.content).toContain('outside the workspace');
    expect(trace.executed).toBe(0);
  });

  it('hands the tool the confined real path', async () => {
    const { registry } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 'x', path: 'sub/new.txt' } });
    expect(outcome.result).toMatchObject({ resolved: path.join(workspace, 'sub', 'new.txt') });
  });

  describe('asking', () => {
    it('asks, waits for the answer, and runs once allowed', async () => {
      const events: string[] = [];
      const approver = new PendingApprovals(
        (question) => events.push(`asked ${question.callId} ${question.request.title}`),
        (callId, answer) => events.push(`answered ${callId} ${answer}`),
      );
      const { registry, trace } = setup({ rules: DEFAULT_RULES, approver });
      const pending = registry.call({ callId: 'c1', name: 'touch', args: { path: 'a.txt' } });
      await until(() => approver.waiting.length === 1);
      expect(trace.executed).toBe(0);
      expect(approver.answer('c1', 'once')).toBe(true);
      expect((await pending).content).toBe('wrote a.txt');
      expect(events).toEqual(['asked c1 Write a.txt', 'answered c1 once']);
    });

    it('stops asking for that path after an answer for the session, and still asks for another', async () => {
      const approver = new PendingApprovals(
        () => undefined,
        () => undefined,
      );
      const { registry, trace } = setup({ rules: DEFAULT_RULES, approver });
      const first = registry.call({ callId: 'c1', name: 'touch', args: { path: 'a.txt' } });
      await until(() => approver.waiting.length === 1);
      approver.answer('c1', 'session');
      await first;
      await registry.call({ callId: 'c2', name: 'touch', args: { path: 'a.txt' } });
      expect(trace.executed).toBe(2);
      expect(approver.waiting).toEqual([]);
      const other = registry.call({ callId: 'c3', name: 'touch', args: { path: 'b.txt' } });
      await until(() => approver.waiting.length === 1);
      approver.answer('c3', 'deny');
      await other;
      expect(trace.executed).toBe(2);
    });

    it('turns a denial into error content', async () => {
      const approver = new PendingApprovals(
        () => undefined,
        () => undefined,
      );
      const { registry, trace } = setup({ rules: DEFAULT_RULES, approver });
      const pending = registry.call({ callId: 'c1', name: 'touch', args: { path: 'a.txt' } });
      await until(() => approver.waiting.length === 1);
      approver.answer('c1', 'deny');
      const outcome = await pending;
      expect(outcome).toMatchObject({ isError: true, content: 'Denied by the user: Write a.txt.' });
      expect(trace.executed).toBe(0);
    });

    it('denies a question whose call is aborted while waiting', async () => {
      const approver = new PendingApprovals(
        () => undefined,
        () => undefined,
      );
      const { registry, trace } = setup({ rules: DEFAULT_RULES, approver });
      const controller = new AbortController();
      const pending = registry.call({
        callId: 'c1',
        name: 'touch',
        args: { path: 'a.txt' },
        signal: controller.signal,
      });
      await until(() => approver.waiting.length === 1);
      controller.abort();
      expect(await pending).toMatchObject({
        isError: true,
        content: 'Cancelled: stopped while waiting for approval of Write a.txt.',
      });
      expect(trace.executed).toBe(0);
    });

    it('gives the headless refusal its message', async () => {
      const { registry } = setup({ rules: DEFAULT_RULES, approver: undefined });
      const outcome = await registry.call({ callId: 'c1', name: 'touch', args: { path: 'a.txt' } });
      expect(outcome.content).toBe('no one to ask');
    });
  });

  it('lets a post-execution block replace the content with error content', async () => {
    const { registry, sink } = setup({
      policies: (input) => (input.content.includes('secret') ? 'the output held a secret' : null),
    });
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: 'a secret' } });
    expect(outcome).toMatchObject({ isError: true, content: 'Blocked: the output held a secret' });
    expect(sink.ofType('tool_completed')[0]?.result).toEqual({
      kind: 'text',
      text: 'Blocked: the output held a secret',
    });
  });

  it('spills long content to a 0600 file and gives the model head and tail', async () => {
    const { registry, sink } = setup();
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index + 1}`);
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: lines.join('\n') } });
    const file = path.join(sessionDir, 'tool-output', 'c1.txt');
    expect(await readFile(file, 'utf8')).toBe(lines.join('\n'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(outcome.content.startsWith('line 1\nline 2\n')).toBe(true);
    expect(outcome.content.endsWith('line 4999\nline 5000')).toBe(true);
    expect(outcome.content).toContain(file);
    expect(outcome.content).not.toContain('\nline 2500\n');
    expect(outcome.content.split('\n').length).toBeLessThan(2000);
    expect(registry.store.get('c1')?.content).toBe(outcome.content);
    expect(sink.ofType('tool_completed')[0]?.result).toMatchObject({ kind: 'text' });
    expect((sink.ofType('tool_completed')[0]?.result.text as string).length).toBeLessThanOrEqual(4000);
  });

  it('still gives the model head and tail, saying so, when the spill file cannot be written', async () => {
    // A file where the spill folder should be.
    await writeFile(path.join(sessionDir, 'tool-output'), '');
    const { registry } = setup();
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index + 1}`);
    const outcome = await registry.call({ callId: 'c1', name: 'echo', args: { text: lines.join('\n') } });
    expect(outcome.isError).toBe(false);
    expect(outcome.content.startsWith('line 1\nline 2\n')).toBe(true);
    expect(outcome.content.endsWith('line 4999\nline 5000')).toBe(true);
    expect(outcome.content).toMatch(/The complete output could not be saved \(EEXIST/);
    expect(outcome.content.split('\n').length).toBeLessThan(2000);
  });

  it('keeps the final content retrievable by call id, stored before tool_completed', async () => {
    const sink = new StatusRecorder();
    const seenAtPut: number[] = [];
    const records = new Map<string, { call_id: string; name: string; content: string; is_error: boolean }>();
    const registry = new ToolRegistry({
      workspace,
      sessionDir,
      sink,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => '')),
      store: {
        put: (record) => void (records.set(record.call_id, record), seenAtPut.push(sink.events.length)),
        get: (id) => records.get(id),
      },
    });
    registry.register(echoTool({ executed: 0, rendered: 0 }));
    await registry.call({ callId: 'c9', name: 'echo', args: { text: 'kept' } });
    expect(registry.store.get('c9')).toEqual({ call_id: 'c9', name: 'echo', content: 'kept', is_error: false });
    expect(sink.events[seenAtPut[0]!]?.type).toBe('tool_completed');
  });

  it("passes a tool's structured echo through uncut (uiPreview's name guard, derived from the tool)", async () => {
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({
      workspace,
      sessionDir,
      sink,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => '')),
    });
    const structured = {
      kind: 'read-file' as const,
      path: 'a.txt',
      range: { start: 1, end: 1 },
      total_lines: 1,
      content: 'x'.repeat(6000),
      truncated: false,
    };
    registry.register(
      defineTool({
        name: 'read_file',
        model: {
          description: '',
          schema: z.object({}),
          render: () => '<path>a.txt</path>',
        },
        gate: { kind: 'read' },
        card: {
          echo: declareEcho(readFileEchoSchema, (result: typeof structured) => result),
        },
        execute: async () => structured,
      }),
    );
    await registry.call({ callId: 'r1', name: 'read_file', args: {} });
    expect(sink.ofType('tool_completed')[0]?.result).toEqual(structured);
  });

  it('emits dispatch events and no cards for nested calls', async () => {
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({
      workspace,
      sessionDir,
      sink,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => '')),
    });
    registry.register(
      echoTool({ executed: 0, rendered: 0 }),
      defineTool({
        name: 'outer',
        model: {
          description: '',
          schema: z.object({}),
          render: (result: string) => result,
        },
        gate: { kind: 'code' },
        async execute(_args, ctx) {
          const [one, two] = await Promise.all([
            ctx.dispatch('echo', { text: 'ONE' }),
            ctx.dispatch('echo', { text: 'TWO' }),
          ]);
          return `${one.content}+${two.content}`;
        },
      }),
    );
    const outcome = await registry.call({ callId: 'o1', name: 'outer', args: {} });
    expect(outcome.content).toBe('ONE+TWO');
    expect(sink.ofType('tool_started').map((event) => event.call_id)).toEqual(['o1']);
    expect(sink.ofType('tool_completed').map((event) => event.call_id)).toEqual(['o1']);
    expect(sink.ofType('tool_progress')).toEqual([]);
    expect(
      sink.ofType('tool_code_dispatch').map((event) => [event.parent_call_id, event.call_id, event.content]),
    ).toEqual([
      ['o1', 'o1.1', 'ONE'],
      ['o1', 'o1.2', 'TWO'],
    ]);
  });
});

describe('cancelling one call', () => {
  const waitTool = defineTool({
    name: 'wait',
    model: {
      description: 'Waits until stopped.',
      schema: z.object({}),
      render: (result: string) => result,
    },
    gate: { kind: 'exec' },
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
      ),
  });

  function waitingRegistry() {
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({
      workspace,
      sessionDir,
      sink,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => '')),
    });
    registry.register(waitTool);
    return { registry, sink };
  }

  it('stops that call alone and gives the model a cancelled result', async () => {
    const { registry } = waitingRegistry();
    const turn = new AbortController();
    const first = registry.call({ callId: 'w1', name: 'wait', args: {}, signal: turn.signal });
    const second = registry.call({ callId: 'w2', name: 'wait', args: {}, signal: turn.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(registry.cancel('w1')).toBe(true);
    expect(await first).toMatchObject({ isError: true, content: 'Cancelled: wait was stopped before it finished.' });
    expect(turn.signal.aborted).toBe(false);
    turn.abort();
    expect((await second).isError).toBe(true);
  });

  it('says false for a call that is not running', async () => {
    const { registry } = waitingRegistry();
    expect(registry.cancel('nope')).toBe(false);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition never became true');
}
