import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderRun } from './call-render.ts';
import type { PostPolicy } from './policies.ts';
import { defineTool, type ToolDefinition } from './tool.ts';

// A result's rendering through the post-execution policies: policies with nothing to do answer at
// once (no promise), one that works asynchronously is awaited before the next, and a policy that
// fails, at once or later, becomes error content naming the tool.

const tool = defineTool({
  name: 'shout',
  description: 'Upper-cases its text.',
  kind: 'read',
  schema: z.object({ text: z.string() }),
  execute: async (args) => args.text,
  render: (result: string) => result.toUpperCase(),
}) as unknown as ToolDefinition<unknown, unknown>;

const ran = { tool, result: 'hi', args: { text: 'hi' }, executedAt: 5, callId: 'c1', sessionDir: '/nowhere' };
const suffix =
  (text: string): PostPolicy =>
  (input) => ({ content: `${input.content}${text}`, isError: input.isError });
const later =
  (text: string): PostPolicy =>
  async (input) => ({ content: `${input.content}${text}`, isError: input.isError });

describe('rendering a call that ran', () => {
  it('answers at once when every policy does', () => {
    const outcome = renderRun(ran, [suffix('!'), suffix('?')]);
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toEqual({ content: 'HI!?', isError: false, result: 'hi', executedAt: 5 });
  });

  it('awaits a policy that works asynchronously, then runs the rest in order', async () => {
    const outcome = renderRun(ran, [suffix('1'), later('2'), suffix('3'), later('4')]);
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).resolves.toMatchObject({ content: 'HI1234', isError: false });
  });

  it('turns a policy that throws at once, or rejects later, into error content naming the tool', async () => {
    const throws: PostPolicy = () => {
      throw new Error('disk full');
    };
    const rejects: PostPolicy = async () => {
      throw new Error('no space left');
    };
    expect(renderRun(ran, [throws])).toEqual({
      content: 'A post-execution policy failed for shout: disk full',
      isError: true,
      executedAt: 5,
    });
    await expect(renderRun(ran, [later('x'), rejects])).resolves.toEqual({
      content: 'A post-execution policy failed for shout: no space left',
      isError: true,
      executedAt: 5,
    });
  });
});
