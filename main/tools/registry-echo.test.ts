import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { z } from 'zod';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover, type GateRules } from './permission-gate.ts';
import { blockPolicy, spillPolicy } from './policies.ts';
import { ToolRegistry } from './registry.ts';
import { defineTool, ToolError } from './tool.ts';

// What the UI route carries for a call (seed 000): a tool's own small structured echo, the
// pass-through result of read_file / patch_file, or `{ error, content }` for a failure.

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

/** A command-like tool (named `exec`, whose view decodes a structured echo) that echoes a summary. */
const commandTool = (options: { throwingEcho?: boolean } = {}) =>
  defineTool({
    name: 'exec',
    description: '',
    kind: 'exec',
    schema: z.object({ code: z.number(), output: z.string() }),
    execute: async (args): Promise<Ran> => {
      if (args.output === 'throw') throw new ToolError(`The shell said: ${'no '.repeat(3000)}`);
      return args;
    },
    render: (result) => `Exit code ${result.code}\n${result.output}`,
    isError: (result) => result.code !== 0,
    echo: (result) => {
      if (options.throwingEcho) throw new Error('no echo today');
      return { exit_code: result.code, output: result.output.slice(-10) };
    },
  });

const pageTool = (ok: boolean) =>
  defineTool({
    name: 'patch_file',
    description: '',
    kind: 'read',
    structuredEcho: true,
    schema: z.object({}),
    execute: async () => (ok ? { ok: true, diff: '+a' } : { ok: false, error: 'no match' }),
    render: (result) => (result.ok ? 'patched' : `Patch failed: ${result.error}`),
    isError: (result) => !result.ok,
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
  it("is the tool's own structured echo when it defines one", async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool());
    expect(await echoOf('exec', { code: 0, output: 'first line\nlast line\n' })).toEqual({
      exit_code: 0,
      output: 'last line\n',
    });
  });

  it("stays the tool's structured echo when its own isError calls the result a failure", async () => {
    const { registry, sink, echoOf } = setup();
    registry.register(commandTool());
    expect(await echoOf('exec', { code: 2, output: 'make: *** Error 2\n' })).toEqual({
      exit_code: 2,
      output: '* Error 2\n',
    });
    expect(sink.ofType('tool_completed').at(-1)?.is_error).toBe(true);
  });

  it('is { error, content } when a post-policy blocked what the tool rendered, so the card never shows it', async () => {
    const { registry, echoOf } = setup({ block: 'hunter2' });
    registry.register(commandTool());
    const echo = await echoOf('exec', { code: 1, output: 'password: hunter2\n' });
    expect(echo).toEqual({ error: 'Blocked: the output held a secret', content: 'Blocked: the output held a secret' });
  });

  it('falls back to the text echo when the structured echo throws', async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool({ throwingEcho: true }));
    expect(await echoOf('exec', { code: 0, output: 'fine\n' })).toBe('Exit code 0\nfine\n');
  });

  it('is { error, content } for a call refused before it ran', async () => {
    const { registry, echoOf } = setup({ rules: { ...ALLOW_ALL, exec: 'deny' } });
    registry.register(commandTool());
    const echo = (await echoOf('exec', { code: 0, output: '' })) as { error: string; content: string };
    expect(Object.keys(echo).sort()).toEqual(['content', 'error']);
    expect(echo.error).toBe(echo.content);
    expect(echo.error).not.toBe('');
  });

  it('cuts the failure text of a structured tool to 4000 characters', async () => {
    const { registry, echoOf } = setup();
    registry.register(commandTool());
    const echo = (await echoOf('exec', { code: 0, output: 'throw' })) as { error: string; content: string };
    expect(echo.error).toHaveLength(4000);
    expect(echo.error).toMatch(/^The shell said: no no .*\.\.\.$/);
  });

  it('passes a structuredEcho result through on success and echoes { error, content } on its failure', async () => {
    const { registry, echoOf } = setup();
    registry.register(pageTool(true));
    expect(await echoOf('patch_file', {})).toEqual({ ok: true, diff: '+a' });
    const failing = setup();
    failing.registry.register(pageTool(false));
    expect(await failing.echoOf('patch_file', {})).toEqual({
      error: 'Patch failed: no match',
      content: 'Patch failed: no match',
    });
  });
});
