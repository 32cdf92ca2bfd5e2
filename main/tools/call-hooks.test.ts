import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFileEchoSchema } from '../../protocol/echo.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { StatusRecorder } from '../status/sink.ts';
import type { CallHook } from './call-hooks.ts';
import { DEFAULT_RULES, PermissionGate, RefuseApprover } from './permission-gate.ts';
import { ToolRegistry } from './registry.ts';
import { declareEcho, defineTool } from './tool.ts';

// A hook's place in a call (the shape a person's PreToolUse / PostToolUse commands take): before
// execute it may refuse the call or rewrite its arguments, which are then checked, confined and
// judged by the gate again; after execute it may add what the model reads, the card keeping the
// tool's own echo.

const temp = useTempWorkspace('aether-call-hooks-');

function setup(hooks: CallHook[], rules: { ask?: string[] } = {}) {
  const ran: string[] = [];
  const sink = new StatusRecorder();
  const asked: string[] = [];
  const gate = new PermissionGate(
    DEFAULT_RULES,
    new RefuseApprover((question) => (asked.push(question.request.title), 'nobody answers here')),
    { rules: { allow: [], ask: rules.ask ?? [], deny: [] } },
  );
  const registry = new ToolRegistry({ workspace: temp.workspace, sessionDir: temp.sessionDir, sink, gate, hooks });
  registry.register(
    defineTool({
      name: 'peek',
      model: {
        description: 'Reads a path (pretends to).',
        schema: z.object({ path: z.string() }),
        render: (result: string) => result,
      },
      gate: {
        kind: 'read',
        paths: (args) => [{ path: args.path, access: 'read' }],
      },
      card: {
        echo: declareEcho(readFileEchoSchema, (result: string, args: { path: string }) => ({
          kind: 'read-file',
          path: args.path,
          range: { start: 1, end: 1 },
          total_lines: 1,
          content: result,
          truncated: false,
        })),
      },
      async execute(args) {
        ran.push(args.path);
        return `seen ${args.path}`;
      },
    }),
  );
  const call = (args: unknown) => registry.call({ callId: 'c1', name: 'peek', args });
  return { call, ran, sink, asked };
}

describe('a hook before execute', () => {
  it('refuses a call: the tool never runs and the model reads why', async () => {
    const { call, ran } = setup([
      { name: 'policy', beforeExecute: () => ({ deny: 'Blocked by policy: no peeking.' }) },
    ]);
    expect(await call({ path: 'a.txt' })).toMatchObject({ isError: true, content: 'Blocked by policy: no peeking.' });
    expect(ran).toEqual([]);
  });

  it('that throws refuses the call with its message', async () => {
    const failing: CallHook = {
      name: 'policy',
      beforeExecute: () => {
        throw new Error('the hook command exited 2');
      },
    };
    const { call, ran } = setup([failing]);
    expect(await call({ path: 'a.txt' })).toMatchObject({
      isError: true,
      content: 'peek did not run: the hook command exited 2',
    });
    expect(ran).toEqual([]);
  });

  it('rewrites the arguments the tool runs with', async () => {
    const { call, ran } = setup([{ name: 'redirect', beforeExecute: () => ({ args: { path: 'b.txt' } }) }]);
    expect(await call({ path: 'a.txt' })).toMatchObject({ isError: false, content: 'seen b.txt' });
    expect(ran).toEqual(['b.txt']);
  });

  it('has its rewrite checked, confined and judged by the gate again', async () => {
    const invalid = setup([{ name: 'redirect', beforeExecute: () => ({ args: { file: 'b.txt' } }) }]);
    expect((await invalid.call({ path: 'a.txt' })).content).toMatch(
      /^The redirect hook gave peek invalid arguments: path: /,
    );
    const outside = setup([{ name: 'redirect', beforeExecute: () => ({ args: { path: '../outside.txt' } }) }]);
    expect(await outside.call({ path: 'a.txt' })).toMatchObject({ isError: true });
    const asking = setup([{ name: 'redirect', beforeExecute: () => ({ args: { path: 'secret/key.txt' } }) }], {
      ask: ['read(secret/**)'],
    });
    expect(await asking.call({ path: 'a.txt' })).toMatchObject({ isError: true, content: 'nobody answers here' });
    expect(asking.asked).toHaveLength(1);
    expect([...invalid.ran, ...outside.ran, ...asking.ran]).toEqual([]);
  });
});

describe('a hook after execute', () => {
  it('adds context after the tool’s text, and the card keeps the tool’s echo', async () => {
    const { call, sink } = setup([
      {
        name: 'notes',
        afterExecute: (hooked, executed) => ({ context: `Note: ${hooked.tool.name} said ${executed.content}.` }),
      },
    ]);
    expect((await call({ path: 'a.txt' })).content).toBe('seen a.txt\n\nNote: peek said seen a.txt.');
    expect(sink.ofType('tool_completed')[0]?.result).toMatchObject({ kind: 'read-file', content: 'seen a.txt' });
  });
});
