import { afterEach, describe, expect, it } from 'vitest';
import { runCode, runCodeFixture, type RunCodeFixture } from './run-code.fixture.ts';
import type { RunCodeLimits } from './run-code-protocol.ts';

// Each limit of DESIGN.md §6, lowered so the tests stay quick; the messages name the limit.

let fixture: RunCodeFixture | undefined;

afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

async function run(limits: Partial<RunCodeLimits>, code: string) {
  fixture = await runCodeFixture({ limits });
  return runCode(fixture, code);
}

describe('run_code limits', () => {
  it('stops a busy loop at the wall-time limit, even inside try/catch', async () => {
    const outcome = await run({ wallMs: 1500 }, `try { while (true) {} } catch (e) { return 'caught'; }`);
    expect(outcome).toMatchObject({ isError: true, content: expect.stringMatching(/^run_code stopped: the program ran past the wall-time limit of 1500 ms\./) });
  });

  it('stops a program waiting on a nested call at the wall-time limit and cancels the call', async () => {
    const outcome = await run({ wallMs: 2500 }, `await tools.wait({ ms: 20000, label: 'slow' }); return 'never';`);
    expect(outcome.content).toMatch(/^run_code stopped: the program ran past the wall-time limit of 2500 ms\./);
    expect(fixture!.cancelled).toEqual(['slow']);
  });

  it('stops a program that outgrows the heap limit', async () => {
    const outcome = await run({ memoryBytes: 8 * 1024 * 1024 }, `const keep = []; while (true) keep.push({ n: keep.length, s: 'x' + keep.length });`);
    expect(outcome).toMatchObject({ isError: true, content: expect.stringMatching(/^run_code stopped: the program ran out of its heap limit of 8 MiB\./) });
  });

  it('stops runaway recursion at the stack limit', async () => {
    const outcome = await run({}, `function down(n) { return down(n + 1) + 1; } return down(0);`);
    expect(outcome).toMatchObject({ isError: true, content: expect.stringMatching(/^run_code stopped: the program exceeded the stack limit of 256 KiB/) });
  });

  it('stops the program at the nested-call limit', async () => {
    const outcome = await run({ maxCalls: 3 }, `for (let i = 0; i < 5; i++) await tools.wait({ ms: 0, label: 'call ' + i }); return 'all';`);
    expect(outcome).toMatchObject({ isError: true, content: expect.stringMatching(/^run_code stopped: the program made more than 3 nested tool calls/) });
    expect(fixture!.started).toEqual(['call 0', 'call 1', 'call 2']);
  });

  it('stops the program at the log limit', async () => {
    const outcome = await run({ logBytes: 4096 }, `for (let i = 0; ; i++) console.log('line ' + i + ' ' + 'x'.repeat(100));`);
    expect(outcome).toMatchObject({ isError: true, content: expect.stringMatching(/^run_code stopped: the program logged more than the 4 KiB log limit\./) });
  });

  it('fails at once when the program awaits something nothing can settle', async () => {
    const outcome = await run({}, `await new Promise(() => {}); return 'never';`);
    expect(outcome).toMatchObject({ isError: true, content: 'run_code failed: the program is awaiting a promise that nothing can settle (no tool call is pending).' });
  });

  it('allows exactly the nested-call limit', async () => {
    const outcome = await run({ maxCalls: 3 }, `const labels = await Promise.all([0, 1, 2].map((i) => tools.wait({ ms: 0, label: 'c' + i }))); return labels.length;`);
    expect(outcome).toMatchObject({ isError: false, content: '3' });
  });
});
