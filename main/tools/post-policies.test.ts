import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from './permission-gate.ts';
import type { PostPolicy } from './policies.ts';
import { ToolRegistry } from './registry.ts';
import { defineTool } from './tool.ts';

// A result's rendering through the post-execution policies: each is awaited before the next, in
// order, and a policy that fails, at once or later, becomes error content naming the tool.

const temp = useTempWorkspace('aether-post-policies-');

const tool = defineTool({
  name: 'shout',
  model: {
    description: 'Upper-cases its text.',
    schema: z.object({ text: z.string() }),
    render: (result: string) => result.toUpperCase(),
  },
  gate: { kind: 'read' },
  execute: async (args) => args.text,
});

async function shout(postPolicies: PostPolicy[]) {
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
  const registry = new ToolRegistry({
    workspace: temp.workspace,
    sessionDir: temp.sessionDir,
    sink: new StatusRecorder(),
    gate,
    postPolicies,
  });
  registry.register(tool);
  return await registry.call({ callId: 'c1', name: 'shout', args: { text: 'hi' } });
}

const suffix =
  (text: string): PostPolicy =>
  (input) => ({ content: `${input.content}${text}`, isError: input.isError });
const later =
  (text: string): PostPolicy =>
  async (input) => ({ content: `${input.content}${text}`, isError: input.isError });

describe('rendering a call that ran', () => {
  it('awaits a policy that works asynchronously, then runs the rest in order', async () => {
    await expect(shout([suffix('1'), later('2'), suffix('3'), later('4')])).resolves.toMatchObject({
      content: 'HI1234',
      isError: false,
    });
  });

  it('turns a policy that throws at once, or rejects later, into error content naming the tool', async () => {
    const throws: PostPolicy = () => {
      throw new Error('disk full');
    };
    const rejects: PostPolicy = async () => {
      throw new Error('no space left');
    };
    await expect(shout([throws])).resolves.toMatchObject({
      content: 'A post-execution policy failed for shout: disk full',
      isError: true,
    });
    await expect(shout([later('x'), rejects])).resolves.toMatchObject({
      content: 'A post-execution policy failed for shout: no space left',
      isError: true,
    });
  });
});
