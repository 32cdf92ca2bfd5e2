import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { uiPreview } from '../status/preview.ts';
import { StatusRecorder } from '../status/sink.ts';
import { structuredEchoNames } from './call-echo.ts';
import { builtinTools } from './index.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover, type GateRules } from './permission-gate.ts';
import { blockPolicy, spillPolicy } from './policies.ts';
import { ToolRegistry } from './registry.ts';
import { declareEcho, defineTool, ToolError } from './tool.ts';

// What the UI route carries for a call (the echo contract): the tool's own echo, tagged by kind and
// checked against its schema, or the `text` echo (uiPreview of what the model got); and what
// tool_started says of the call (its description and the kind of card it will get).

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-echo-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Ran {
  code: number;
  output: string;
}

const tailEchoSchema = z.object({ kind: z.literal('tail'), exit_code: z.number().int(), output: z.string() });

/** A command-like tool whose echo is its exit code and the end of its output. */
const commandTool = (options: { throwingEcho?: boolean; invalidEcho?: boolean } = {}) =>
  defineTool<Ran, Ran>({
    name: 'command',
    model: {
      description: '',
      schema: z.object({ code: z.number(), output: z.string() }),
      render: (result) => `Exit code ${result.code}\n${result.output}`,
      isError: (result) => result.code !== 0,
    },
    gate: { kind: 'exec' },
    card: {
      describe: (args) => ({ title: 'Run a command', subtitle: `code ${args.code}`, detail: args.output }),
      echo: declareEcho(tailEchoSchema, (result: Ran) => {
        if (options.throwingEcho) throw new Error('no echo today');
        const echo = { kind: 'tail' as const, exit_code: result.code, output: result.output.slice(-10) };
        return options.invalidEcho ? ({ ...echo, exit_code: 'two' } as unknown as typeof echo) : echo;
      }),
    },
    execute: async (args): Promise<Ran> => {
      if (args.output === 'throw') throw new ToolError(`The shell said: ${'no '.repeat(3000)}`);
      return args;
    },
  });

/** A patch-like tool that echoes its successes only. */
const pageTool = (ok: boolean) =>
  defineTool({
    name: 'page',
    model: {
      description: '',
      schema: z.object({}),
      render: (result) => (result.ok ? 'patched' : 'Patch failed: no match'),
      isError: (result) => !result.ok,
    },
    gate: { kind: 'read' },
    card: {
      echo: declareEcho(
        z.object({ kind: z.literal('page'), diff: z.string() }),
        (result: { ok: boolean; diff: string }) =>
          result.ok ? { kind: 'page' as const, diff: result.diff } : undefined,
      ),
    },
    execute: async () => (ok ? { ok: true, diff: '+a' } : { ok: false, diff: '' }),
  });

function setup(options: { rules?: GateRules; block?: string } = {}) {
  const sink = new StatusRecorder();
  const gate = new PermissionGate(options.rules ?? ALLOW_ALL, new RefuseApprover(() => 'no one to ask'));
  const blocked = options.block;
  const postPolicies = blocked
    ? [blockPolicy((input) => (input.content.includes(blocked) ? 'the output held a secret' : null)), spillPolicy()]
    : undefined;
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, ...(postPolicies ? { postPolicies } : {}) });
  const echoOf = async (name: string, args: unknown) => {
    await registry.call({ callId: `c${sink.events.length}`, name, args });
    return sink.ofType('tool_completed').at(-1)?.result;
  };
  return { registry, sink, echoOf };
}

describe('the echo of a call', () => {
  it("is the tool's own echo, tagged by its kind", async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool());
    expect(await echoOf('command', { code: 0, output: 'first line\nlast line\n' })).toEqual({
      kind: 'tail',
      exit_code: 0,
      output: 'last line\n',
    });
  });

  it("stays the tool's own echo when its isError calls the result a failure", async () => {
    const { registry, sink, echoOf } = setup();
    registry.register(commandTool());
    expect(await echoOf('command', { code: 2, output: 'make: *** Error 2\n' })).toEqual({
      kind: 'tail',
      exit_code: 2,
      output: '* Error 2\n',
    });
    expect(sink.ofType('tool_completed').at(-1)?.is_error).toBe(true);
  });

  it('is the text of the block when a post-policy blocked what the tool rendered, so the card never shows it', async () => {
    const { registry, echoOf } = setup({ block: 'hunter2' });
    registry.register(commandTool());
    expect(await echoOf('command', { code: 1, output: 'password: hunter2\n' })).toEqual({
      kind: 'text',
      text: 'Blocked: the output held a secret',
    });
  });

  it('falls back to the text echo when the tool echo throws', async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool({ throwingEcho: true }));
    expect(await echoOf('command', { code: 0, output: 'fine\n' })).toEqual({
      kind: 'text',
      text: 'Exit code 0\nfine\n',
    });
  });

  it('falls back to the text echo when the tool echo does not fit its schema', async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool({ invalidEcho: true }));
    expect(await echoOf('command', { code: 0, output: 'fine\n' })).toEqual({
      kind: 'text',
      text: 'Exit code 0\nfine\n',
    });
  });

  it('is the text of the refusal for a call refused before it ran', async () => {
    const { registry, echoOf } = setup({ rules: { ...ALLOW_ALL, exec: 'deny' } });
    registry.register(commandTool());
    const echo = await echoOf('command', { code: 0, output: '' });
    expect(echo?.kind).toBe('text');
    expect(echo?.['text']).toMatch(/^Denied: command/);
  });

  it('cuts the failure text to 4000 characters, as uiPreview does', async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool());
    const echo = await echoOf('command', { code: 0, output: 'throw' });
    expect(echo?.['text']).toHaveLength(4000);
    expect(echo?.['text']).toMatch(/^The shell said: no no .*\.\.\.$/);
  });

  it('is the text echo when the tool has nothing structured to say about a failure', async () => {
    const { registry, echoOf } = setup();
    registry.register(pageTool(true));
    expect(await echoOf('page', {})).toEqual({ kind: 'page', diff: '+a' });
    const failing = setup();
    failing.registry.register(pageTool(false));
    expect(await failing.echoOf('page', {})).toEqual({ kind: 'text', text: 'Patch failed: no match' });
  });

  it('of a nested call travels in its dispatch event', async () => {
    const { registry, sink } = setup();
    registry.register(
      commandTool(),
      defineTool({
        name: 'program',
        model: {
          description: '',
          schema: z.object({}),
          render: (result: string) => result,
        },
        gate: { kind: 'code' },
        execute: async (_args, ctx) => (await ctx.dispatch('command', { code: 0, output: 'nested\n' })).content,
      }),
    );
    await registry.call({ callId: 'p1', name: 'program', args: {} });
    expect(sink.ofType('tool_code_dispatch')[0]?.echo).toEqual({ kind: 'tail', exit_code: 0, output: 'nested\n' });
  });
});

describe('how a call describes itself', () => {
  it('tool_started carries the description and the echo kind of the card', async () => {
    const { registry, sink } = setup();
    registry.register(commandTool());
    await registry.call({ callId: 'c1', name: 'command', args: { code: 0, output: 'ok' } });
    expect(sink.ofType('tool_started')[0]).toMatchObject({
      description: { title: 'Run a command', subtitle: 'code 0', detail: 'ok' },
      echo_kind: 'tail',
    });
  });

  it('a tool without an echo of its own gets text cards', async () => {
    const { registry, sink } = setup();
    registry.register(
      pageTool(true),
      defineTool({
        ...plainTool,
      }),
    );
    await registry.call({ callId: 'c1', name: 'plain', args: {} });
    expect(sink.ofType('tool_started')[0]?.echo_kind).toBe('text');
  });

  it('invalid arguments give no description, and an unknown tool no echo kind either', async () => {
    const { registry, sink } = setup();
    registry.register(commandTool());
    await registry.call({ callId: 'c1', name: 'command', args: { code: 'zero' } });
    await registry.call({ callId: 'c2', name: 'nothing', args: {} });
    const [invalid, unknown] = sink.ofType('tool_started');
    expect(invalid?.description).toBeUndefined();
    expect(invalid?.echo_kind).toBe('tail');
    expect(unknown?.description).toBeUndefined();
    expect(unknown?.echo_kind).toBeUndefined();
  });

  it("the approval question asks with the description's title and detail", async () => {
    const asked: string[] = [];
    const gate = new PermissionGate(
      { ...ALLOW_ALL, exec: 'ask' },
      {
        ask: async (question) => {
          asked.push(`${question.request.title}: ${question.request.detail}`);
          return 'deny';
        },
      },
    );
    const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate });
    registry.register(commandTool());
    await registry.call({ callId: 'c1', name: 'command', args: { code: 0, output: 'make all' } });
    expect(asked).toEqual(['Run a command: make all']);
  });
});

const plainTool = {
  name: 'plain',
  model: { description: '', schema: z.object({}), render: (result: string) => result },
  gate: { kind: 'read' as const },
  execute: async () => 'plain text',
};

describe("uiPreview's name guard", () => {
  it('is derived from the registered tools: those that declare a structured echo', () => {
    expect([...structuredEchoNames(builtinTools())].sort()).toEqual([
      'exec',
      'patch_file',
      'read_file',
      'run_code',
      'ssh_exec',
      'web_fetch',
      'write_file',
    ]);
  });

  it("lets uiPreview pass those tools' object echo through untouched and collapses the others", () => {
    const guard = structuredEchoNames(builtinTools());
    const page = { kind: 'read-file', content: 'x'.repeat(10_000) };
    expect(uiPreview(page, 4000, { name: 'read_file', structured: guard })).toBe(page);
    expect(uiPreview({ content: 'listed' }, 4000, { name: 'list_dir', structured: guard })).toBe('listed');
  });
});
