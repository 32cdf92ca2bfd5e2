import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolContent } from '../../protocol/api.ts';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { StatusRecorder } from '../status/sink.ts';
import type { ToolContentStore } from './content-store.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from './permission-gate.ts';
import { defaultCallHooks } from './default-call-hooks.ts';
import { ToolRegistry } from './registry.ts';
import { defineTool } from './tool.ts';

// A nested call's records are made durable with its program's result: the program hears back
// without waiting for them to be written, and the program's own completion waits for them.

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-nested-writes-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A store whose nested records are written only when the test says so (or fail then). */
class HeldStore implements ToolContentStore {
  readonly records: ToolContent[] = [];
  private readonly held: { resolve(): void; reject(error: Error): void }[] = [];

  put(record: ToolContent & { parent_call_id?: string }): void | Promise<void> {
    this.records.push(record);
    if (record.parent_call_id === undefined) return;
    return new Promise((resolve, reject) => this.held.push({ resolve, reject }));
  }

  get(callId: string): ToolContent | undefined {
    return this.records.find((record) => record.call_id === callId);
  }

  get waiting(): number {
    return this.held.length;
  }

  release(error?: Error): void {
    for (const write of this.held.splice(0)) {
      if (error) write.reject(error);
      else write.resolve();
    }
  }
}

function setup(store: HeldStore, heard: string[]) {
  const registry = new ToolRegistry({
    workspace,
    sessionDir,
    sink: new StatusRecorder(),
    store,
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask')),
    hooks: defaultCallHooks(),
  });
  registry.register(
    defineTool({
      name: 'echo',
      model: {
        description: 'Echoes text.',
        schema: z.object({ text: z.string() }),
        render: (result: string) => result,
      },
      gate: { kind: 'read' },
      execute: async (args) => args.text,
    }),
    defineTool({
      name: 'program',
      model: {
        description: 'Calls echo twice, one after the other.',
        schema: z.object({}),
        render: (result: string) => result,
      },
      gate: { kind: 'code' },
      async execute(_args, ctx) {
        for (const text of ['one', 'two']) heard.push((await ctx.dispatch('echo', { text })).content);
        return heard.join('+');
      },
    }),
  );
  return registry;
}

describe('records of nested calls', () => {
  it('do not hold up the program, and its completion waits for them', async () => {
    const store = new HeldStore();
    const heard: string[] = [];
    const registry = setup(store, heard);
    let finished = false;
    const outcome = registry.call({ callId: 'p1', name: 'program', args: {} }).then((result) => {
      finished = true;
      return result;
    });
    await vi.waitFor(() => expect(heard).toEqual(['one', 'two']));
    // Both nested calls answered while neither record was written yet.
    expect(store.waiting).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(false);
    store.release();
    expect((await outcome).content).toBe('one+two');
    expect(store.records.map((record) => record.call_id)).toEqual(['p1.1', 'p1.2', 'p1']);
  });

  it('fail the program’s completion when they could not be written', async () => {
    const store = new HeldStore();
    const registry = setup(store, []);
    const outcome = registry.call({ callId: 'p1', name: 'program', args: {} });
    await vi.waitFor(() => expect(store.waiting).toBe(2));
    store.release(new Error('Could not write the session file: no space left on device'));
    await expect(outcome).rejects.toThrow(/no space left on device/);
  });
});
