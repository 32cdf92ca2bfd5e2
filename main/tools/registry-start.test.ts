import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { StatusRecorder } from '../status/sink.ts';
import { MemoryContentStore } from './content-store.ts';
import type { CallCheckpoints } from './checkpoints/call-checkpoints.ts';
import { ALLOW_ALL, DEFAULT_RULES, PendingApprovals, PermissionGate, type GateRules } from './permission-gate.ts';
import { defaultCallHooks } from './default-call-hooks.ts';
import { ToolRegistry, type RegistryOptions } from './registry.ts';
import { defineTool } from './tool.ts';

// When a call's start reaches the sink and when it follows the turn's Stop: with a store, its
// tool_started is written before the tool runs; without one, it may go out while the tool runs, but
// never after anything else of the call. A Stop before the tool starts means it never starts.

const temp = useTempWorkspace('aether-registry-start-');

/** A tool that reports progress in the same synchronous stretch it starts in, then waits for its signal or a tick. */
function reportingTool(
  seen: { atStart: StatusEvent['type'][]; ran: number; signal?: AbortSignal },
  sink: StatusRecorder,
  kind: 'exec' | 'read' = 'exec',
) {
  return defineTool({
    name: 'probe',
    model: {
      description: 'Reports at once, then answers.',
      schema: z.object({ wait: z.boolean().optional() }),
      render: (result: string) => result,
    },
    gate: { kind },
    card: {
      describe: () => ({ title: 'Probe the pipeline', subtitle: 'probe', detail: 'probe' }),
    },
    execute(args, ctx) {
      seen.ran += 1;
      seen.signal = ctx.signal;
      seen.atStart = sink.events.map((event) => event.type);
      ctx.report({ text: 'at once', cut_bytes: 0, total_bytes: 7 });
      if (!args.wait) return Promise.resolve('done');
      return new Promise<string>((resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
      });
    },
  });
}

function setup(
  options: {
    store?: boolean;
    rules?: GateRules;
    approver?: PendingApprovals;
    checkpoints?: CallCheckpoints;
    kind?: 'exec' | 'read';
  } = {},
) {
  const sink = new StatusRecorder();
  const approver =
    options.approver ??
    new PendingApprovals(
      () => undefined,
      () => undefined,
    );
  const gate = new PermissionGate(options.rules ?? ALLOW_ALL, approver);
  const registryOptions: RegistryOptions = {
    workspace: temp.workspace,
    sessionDir: temp.sessionDir,
    sink,
    gate,
    ...(options.store ? { store: new MemoryContentStore() } : {}),
    ...(options.checkpoints ? { hooks: defaultCallHooks({ checkpoints: options.checkpoints }) } : {}),
  };
  const seen: { atStart: StatusEvent['type'][]; ran: number; signal?: AbortSignal } = { atStart: [], ran: 0 };
  const registry = new ToolRegistry(registryOptions).register(reportingTool(seen, sink, options.kind));
  return { registry, sink, seen };
}

describe('a call’s start', () => {
  it('with a store, is written before the tool runs', async () => {
    const { registry, sink, seen } = setup({ store: true });
    await registry.call({ callId: 'c1', name: 'probe', args: {} });
    expect(seen.atStart).toEqual(['tool_started']);
    expect(sink.events.map((event) => event.type)).toEqual(['tool_started', 'tool_progress', 'tool_completed']);
  });

  it('with a store, of a read-only call, is waited for neither before the tool runs nor before its caller hears back', async () => {
    for (const kind of ['read', 'exec'] as const) {
      const { registry, sink, seen } = setup({ store: true, kind });
      // The start's write hangs until released, as an fsync on a slow disk does.
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const emit = sink.emit.bind(sink);
      sink.emit = (event) => (event.type === 'tool_started' ? held.then(() => emit(event)) : emit(event));
      const call = registry.call({ callId: 'c1', name: 'probe', args: {} });
      // A read runs, and its caller hears back, while its start is still being written.
      if (kind === 'read') {
        expect(await call).toMatchObject({ content: 'done', isError: false });
        expect(seen.atStart).toEqual([]);
      }
      release();
      const outcome = await call;
      expect(outcome).toMatchObject({ content: 'done', isError: false });
      expect(seen.ran).toBe(1);
      // Anything else ran only once its start was written.
      if (kind === 'exec') expect(seen.atStart).toEqual(['tool_started']);
    }
  });

  it('without a store, still reaches the sink before the progress the tool reports as it starts, and before its completion', async () => {
    const { registry, sink } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'probe', args: {} });
    expect(outcome).toMatchObject({ content: 'done', isError: false });
    expect(sink.events.map((event) => event.type)).toEqual(['tool_started', 'tool_progress', 'tool_completed']);
    expect(sink.ofType('tool_started')[0]).toMatchObject({
      call_id: 'c1',
      description: { title: 'Probe the pipeline' },
    });
  });

  it('goes out before the approval question, and a Stop while the question waits withdraws it: the tool never runs', async () => {
    const order: string[] = [];
    const approver = new PendingApprovals(
      (question) => order.push(`asked ${question.callId}`),
      (callId, _answer, stopped) => order.push(`resolved ${callId}${stopped ? ' (stopped)' : ''}`),
    );
    const { registry, sink, seen } = setup({ rules: DEFAULT_RULES, approver });
    const turn = new AbortController();
    const call = registry.call({ callId: 'c1', name: 'probe', args: {}, signal: turn.signal });
    await expect.poll(() => approver.waiting).toEqual(['c1']);
    order.unshift(...sink.events.map((event) => event.type));
    turn.abort();
    const outcome = await call;
    expect(order).toEqual(['tool_started', 'asked c1', 'resolved c1 (stopped)']);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Cancelled: stopped while waiting for approval/);
    expect(seen.ran).toBe(0);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  it('stopped while its checkpoint is taken never starts the tool', async () => {
    const turn = new AbortController();
    const checkpoints: CallCheckpoints = {
      before: async () => {
        turn.abort();
        return null;
      },
    };
    const { registry, sink, seen } = setup({ checkpoints });
    const outcome = await registry.call({ callId: 'c1', name: 'probe', args: {}, signal: turn.signal });
    expect(outcome).toMatchObject({ isError: true, content: 'Cancelled: probe was stopped before it started.' });
    expect(seen.ran).toBe(0);
    expect(sink.events.map((event) => event.type)).toEqual(['tool_started', 'tool_completed']);
  });

  it('follows the turn’s Stop while the tool runs, and leaves no listener on the turn once it ends', async () => {
    const { registry, seen } = setup();
    const turn = new AbortController();
    const call = registry.call({ callId: 'c1', name: 'probe', args: { wait: true }, signal: turn.signal });
    await expect.poll(() => seen.ran).toBe(1);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    turn.abort(new DOMException('Stopped by the person.', 'AbortError'));
    const outcome = await call;
    expect(seen.signal?.aborted).toBe(true);
    expect(outcome).toMatchObject({ isError: true, content: 'Cancelled: probe was stopped before it finished.' });

    const next = new AbortController();
    await registry.call({ callId: 'c2', name: 'probe', args: {}, signal: next.signal });
    expect(getEventListeners(next.signal, 'abort')).toHaveLength(0);
  });

  it('fails the call when the sink refuses tool_started, at once or later, after the tool has finished', async () => {
    for (const refuse of [
      () => {
        throw new Error('sink closed');
      },
      () => Promise.reject(new Error('sink closed')),
    ]) {
      const { registry, sink, seen } = setup();
      const emit = sink.emit.bind(sink);
      sink.emit = (event) => (event.type === 'tool_started' ? refuse() : emit(event));
      await expect(registry.call({ callId: 'c1', name: 'probe', args: {} })).rejects.toThrow('sink closed');
      expect(seen.ran).toBe(1);
      expect(sink.events.map((event) => event.type)).toEqual(['tool_progress', 'tool_completed']);
    }
  });

  it('already stopped: the tool never starts', async () => {
    const { registry, seen } = setup({ store: true });
    const turn = new AbortController();
    turn.abort();
    const outcome = await registry.call({ callId: 'c1', name: 'probe', args: {}, signal: turn.signal });
    expect(outcome).toMatchObject({ isError: true, content: 'Cancelled: probe was stopped before it started.' });
    expect(seen.ran).toBe(0);
  });
});
