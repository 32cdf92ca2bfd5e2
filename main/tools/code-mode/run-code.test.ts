import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatusRecorder } from '../../status/sink.ts';
import { builtinTools } from '../index.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { runCode, runCodeFixture, type RunCodeFixture } from '../../../test/run-code-fixture.ts';
import { NO_OUTPUT } from './run-code.ts';

let fixture: RunCodeFixture;

beforeEach(async () => {
  fixture = await runCodeFixture();
});

afterEach(async () => {
  await fixture.dispose();
});

describe('run_code outer content', () => {
  it('renders captured logs in order when the program returns nothing', async () => {
    const outcome = await runCode(
      fixture,
      `console.log('one', 2); console.info('two'); console.warn('three'); console.error('four');`,
    );
    expect(outcome).toMatchObject({ isError: false, content: 'one 2\ntwo\n[warn] three\n[error] four' });
  });

  it('renders an object return value as JSON', async () => {
    const outcome = await runCode(fixture, `return { files: ['a', 'b'], count: 2 };`);
    expect(outcome.content).toBe(JSON.stringify({ files: ['a', 'b'], count: 2 }, null, 2));
  });

  it('renders a string return value as it is', async () => {
    const outcome = await runCode(fixture, `return 'plain "text"\\nsecond line';`);
    expect(outcome.content).toBe('plain "text"\nsecond line');
  });

  it('renders logs and then the return value of a program that calls tools', async () => {
    await writeFile(path.join(fixture.workspace, 'one.txt'), 'CODE_ONE');
    await writeFile(path.join(fixture.workspace, 'two.txt'), 'CODE_TWO');
    const outcome = await runCode(
      fixture,
      `const one = await tools.read_file({ path: 'one.txt' });
       console.log('first:', one.content);
       const two = await tools.read_file({ path: 'two.txt' });
       console.log('second:', two.content);
       return one.content + '+' + two.content;`,
    );
    expect(outcome.content).toBe('first: CODE_ONE\nsecond: CODE_TWO\nCODE_ONE+CODE_TWO');
  });

  it('renders the explicit marker when there are neither logs nor a value', async () => {
    const outcome = await runCode(fixture, `const x = 1 + 1;`);
    expect(outcome).toMatchObject({ isError: false, content: NO_OUTPUT });
  });

  it('spills a long result like any tool: head and tail for the model, the whole in a file', async () => {
    const outcome = await runCode(
      fixture,
      `return Array.from({ length: 3000 }, (_, i) => 'line ' + (i + 1)).join('\\n');`,
    );
    const spilled = /The complete output is in (\S+)\. /.exec(outcome.content)?.[1];
    expect(outcome.content.startsWith('line 1\n')).toBe(true);
    expect(outcome.content.endsWith('line 3000')).toBe(true);
    expect(await readFile(spilled!, 'utf8')).toBe(Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n'));
  });

  it('turns an uncaught throw into error content with the message and the program line', async () => {
    const outcome = await runCode(fixture, `const a = 1;\nthrow new TypeError('no such thing');`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^run_code failed: TypeError: no such thing\n\s+at program \(program\.js:2:\d+\)$/);
  });

  it('reports a syntax error with its line', async () => {
    const outcome = await runCode(fixture, `const a = 1;\nconst = 2;`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^run_code failed: SyntaxError: .*\n\s+at program\.js:2:\d+$/);
  });

  it('reports a thrown value that is not an Error', async () => {
    const outcome = await runCode(fixture, `throw 'gave up';`);
    expect(outcome).toMatchObject({ isError: true, content: 'run_code failed: the program threw "gave up"' });
  });
});

describe('run_code nested calls', () => {
  it('gives the program the structured result of a nested call', async () => {
    await writeFile(path.join(fixture.workspace, 'note.txt'), 'hello');
    const outcome = await runCode(
      fixture,
      `const r = await tools.read_file({ path: 'note.txt' }); return [typeof r, r.path, r.content, r.total_lines];`,
    );
    expect(JSON.parse(outcome.content)).toEqual(['object', 'note.txt', 'hello', 1]);
  });

  it('rejects a failed nested call with an Error carrying its error text', async () => {
    const outcome = await runCode(
      fixture,
      `try { await tools.read_file({ path: '../outside.txt' }); } catch (e) { return [e instanceof Error, e.message]; }`,
    );
    const [isError, message] = JSON.parse(outcome.content) as [boolean, string];
    const dispatched = fixture.sink.ofType('tool_code_dispatch')[0]!;
    expect([isError, message]).toEqual([true, dispatched.content]);
    expect(dispatched.is_error).toBe(true);
  });

  it('refuses a nested call the gate denies, runs nothing, and fails the program that does not catch it', async () => {
    await fixture.dispose();
    fixture = await runCodeFixture({ rules: { ...ALLOW_ALL, write: 'deny' } });
    const outcome = await runCode(
      fixture,
      `await tools.write_file({ path: 'x.txt', content: 'nope' }); return 'written';`,
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(
      /^run_code failed: Error: Denied: write_file \(write\) is not allowed in this session\.\n\s+at program \(program\.js:1:\d+\)$/,
    );
    expect(fixture.sink.ofType('tool_code_dispatch').map((event) => [event.name, event.is_error])).toEqual([
      ['write_file', true],
    ]);
    await expect(readFile(path.join(fixture.workspace, 'x.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('runs nested calls concurrently under Promise.all and resolves them in order', async () => {
    await fixture.dispose();
    fixture = await runCodeFixture({ limits: { wallMs: 5000 } });
    const outcome = await runCode(
      fixture,
      `return (await Promise.all(['a', 'b', 'c'].map((label) => tools.meet({ label, of: 3 })))).join(',');`,
    );
    expect(outcome).toMatchObject({ isError: false, content: 'a,b,c' });
    expect(fixture.sink.ofType('tool_code_dispatch')).toHaveLength(3);
  });

  it('makes one card per outer call: one started/completed pair and one dispatch event per nested call', async () => {
    await writeFile(path.join(fixture.workspace, 'note.txt'), 'hello');
    const outcome = await runCode(
      fixture,
      `await tools.read_file({ path: 'note.txt' }); await tools.write_file({ path: 'out.txt', content: 'x' }); console.log('done'); return 1;`,
    );
    const types = fixture.sink.events.map((event) => event.type);
    expect(types).toEqual(['tool_started', 'tool_code_dispatch', 'tool_code_dispatch', 'tool_completed']);
    const dispatches = fixture.sink.ofType('tool_code_dispatch');
    expect(dispatches.map((event) => [event.parent_call_id, event.name, event.args])).toEqual([
      [outcome.callId, 'read_file', { path: 'note.txt' }],
      [outcome.callId, 'write_file', { path: 'out.txt', content: 'x' }],
    ]);
    const direct = await fixture.registry.call({ callId: 'direct', name: 'read_file', args: { path: 'note.txt' } });
    expect(dispatches[0]!.content).toBe(direct.content);
    // Each nested call carries the echo its own card would have had.
    expect(dispatches[0]!.echo).toEqual(fixture.sink.ofType('tool_completed').at(-1)?.result);
    expect(dispatches[0]!.echo).toMatchObject({ kind: 'read-file', content: 'hello', range: { start: 1, end: 1 } });
    expect(dispatches[1]!.echo).toMatchObject({ kind: 'write', created: true, content: { text: 'x' } });
    expect(fixture.sink.ofType('tool_completed')[0]).toMatchObject({
      call_id: outcome.callId,
      name: 'run_code',
      is_error: false,
      result: { kind: 'code', output: 'done\n1', empty: false },
    });
  });

  it('cancels nested calls still running when the program ends, before the card completes', async () => {
    const outcome = await runCode(fixture, `tools.wait({ ms: 20000, label: 'left behind' }); return 'finished';`);
    expect(outcome.content).toBe('finished');
    expect(fixture.cancelled).toEqual(['left behind']);
    expect(fixture.sink.events.map((event) => event.type)).toEqual([
      'tool_started',
      'tool_code_dispatch',
      'tool_completed',
    ]);
    expect(fixture.sink.ofType('tool_code_dispatch')[0]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^Cancelled/),
    });
  });

  it('stops the program and its nested calls when the outer call is cancelled', async () => {
    const controller = new AbortController();
    const running = runCode(
      fixture,
      `await tools.wait({ ms: 20000, label: 'inner' }); return 'never';`,
      controller.signal,
    );
    while (!fixture.started.includes('inner')) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await running).toMatchObject({
      isError: true,
      content: 'Cancelled: run_code was stopped before it finished.',
    });
    expect(fixture.cancelled).toEqual(['inner']);
  });
});

describe('run_code sandbox', () => {
  it('gives the Function constructor no way to the host process', async () => {
    const outcome = await runCode(fixture, `return this.constructor.constructor('return process')();`);
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code failed: ReferenceError: 'process' is not defined/),
    });
  });

  it('has no process, require, Buffer or timers on the global object', async () => {
    const outcome = await runCode(
      fixture,
      `return [typeof globalThis.process, typeof require, typeof Buffer, typeof setTimeout, typeof fetch].join(',');`,
    );
    expect(outcome.content).toBe('undefined,undefined,undefined,undefined,undefined');
  });

  it('cannot import modules', async () => {
    const outcome = await runCode(
      fixture,
      `const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8');`,
    );
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code failed: ReferenceError: could not load module 'fs'/),
    });
  });

  it('cannot call run_code from inside a program', async () => {
    const outcome = await runCode(fixture, `return [typeof tools.run_code, Object.keys(tools).sort().join(',')];`);
    expect(JSON.parse(outcome.content)).toEqual(['undefined', 'meet,read_file,wait,write_file']);
  });
});

describe('run_code with the built-in tools', () => {
  it('runs two nested exec calls, logs their output and returns both in one card', async () => {
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({
      workspace: fixture.workspace,
      sessionDir: fixture.sessionDir,
      sink,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody')),
    });
    registry.register(...builtinTools());
    const outcome = await registry.call({
      callId: 'outer',
      name: 'run_code',
      args: {
        code: `const one = await tools.exec({ command: 'echo CODE_ONE' });
               const two = await tools.exec({ command: 'echo CODE_TWO' });
               console.log('captured', one.output.trim(), two.output.trim());
               return one.output.trim() + '+' + two.output.trim();`,
      },
    });
    expect(outcome).toMatchObject({ isError: false, content: 'captured CODE_ONE CODE_TWO\nCODE_ONE+CODE_TWO' });
    expect(sink.events.map((event) => event.type)).toEqual([
      'tool_started',
      'tool_code_dispatch',
      'tool_code_dispatch',
      'tool_completed',
    ]);
  });
});
