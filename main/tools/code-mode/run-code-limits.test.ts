import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL, PendingApprovals } from '../permission-gate.ts';
import { runCode, runCodeFixture, type RunCodeFixture } from '../../../test/run-code-fixture.ts';
import type { RunCodeLimits } from './run-code-protocol.ts';

// Each of run_code's default limits (docs/contracts.md), lowered so the tests stay quick; the
// messages name the limit.

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
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code stopped: the program ran past the wall-time limit of 1500 ms\./),
    });
  });

  it('stops a program waiting on a nested call at the wall-time limit and cancels the call', async () => {
    const outcome = await run({ wallMs: 2500 }, `await tools.wait({ ms: 20000, label: 'slow' }); return 'never';`);
    expect(outcome.content).toMatch(/^run_code stopped: the program ran past the wall-time limit of 2500 ms\./);
    expect(fixture!.cancelled).toEqual(['slow']);
  });

  it('stops a program that outgrows the heap limit', async () => {
    const outcome = await run(
      { memoryBytes: 8 * 1024 * 1024 },
      `const keep = []; while (true) keep.push({ n: keep.length, s: 'x' + keep.length });`,
    );
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code stopped: the program ran out of its heap limit of 8 MiB\./),
    });
  });

  it('stops runaway recursion at the stack limit', async () => {
    const outcome = await run({}, `function down(n) { return down(n + 1) + 1; } return down(0);`);
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code stopped: the program exceeded the stack limit of 256 KiB/),
    });
  });

  it('stops the program at the nested-call limit', async () => {
    const outcome = await run(
      { maxCalls: 3 },
      `for (let i = 0; i < 5; i++) await tools.wait({ ms: 0, label: 'call ' + i }); return 'all';`,
    );
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code stopped: the program made more than 3 nested tool calls/),
    });
    expect(fixture!.started).toEqual(['call 0', 'call 1', 'call 2']);
  });

  it('stops the program at the log limit', async () => {
    const outcome = await run(
      { logBytes: 4096 },
      `for (let i = 0; ; i++) console.log('line ' + i + ' ' + 'x'.repeat(100));`,
    );
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code stopped: the program logged more than the 4 KiB log limit\./),
    });
  });

  it('fails at once when the program awaits something nothing can settle', async () => {
    const outcome = await run({}, `await new Promise(() => {}); return 'never';`);
    expect(outcome).toMatchObject({
      isError: true,
      content: 'run_code failed: the program is awaiting a promise that nothing can settle (no tool call is pending).',
    });
  });

  it('allows exactly the nested-call limit', async () => {
    const outcome = await run(
      { maxCalls: 3 },
      `const labels = await Promise.all([0, 1, 2].map((i) => tools.wait({ ms: 0, label: 'c' + i }))); return labels.length;`,
    );
    expect(outcome).toMatchObject({ isError: false, content: '3' });
  });
});

describe('run_code wall time while a nested call waits for approval', () => {
  const WALL_MS = 2500;

  /** Writes ask; every question is answered (allowed) at `at`, epoch milliseconds. */
  async function answeredAt(at: number) {
    const approvals: PendingApprovals = new PendingApprovals(
      (question) => {
        setTimeout(() => approvals.answer(question.callId, 'once'), Math.max(0, at - Date.now()));
      },
      () => undefined,
    );
    fixture = await runCodeFixture({
      rules: { ...ALLOW_ALL, write: 'ask' },
      approver: approvals,
      limits: { wallMs: WALL_MS },
    });
    return fixture;
  }

  /** Later than the wall-time limit would end the run if waiting for the answer counted. */
  const pastTheLimit = (): number => Date.now() + WALL_MS + 500;

  it('does not count the wait: the run finishes after an answer that comes past the limit', async () => {
    const at = pastTheLimit();
    const { workspace } = await answeredAt(at);
    const outcome = await runCode(
      fixture!,
      `const written = await tools.write_file({ path: 'note.txt', content: 'hi' }); return written.created;`,
    );
    expect(outcome).toMatchObject({ isError: false, content: 'true' });
    expect(await readFile(path.join(workspace, 'note.txt'), 'utf8')).toBe('hi');
  });

  it('counts time again once the answer comes', async () => {
    await answeredAt(pastTheLimit());
    const outcome = await runCode(
      fixture!,
      `await tools.write_file({ path: 'note.txt', content: 'hi' }); await tools.wait({ ms: 20000, label: 'after' }); return 'never';`,
    );
    expect(outcome.content).toMatch(/^run_code stopped: the program ran past the wall-time limit of 2500 ms\./);
    expect(fixture!.cancelled).toEqual(['after']);
  });

  it('lets a busy program run on while the person decides, and interrupts it after the answer', async () => {
    // The interrupt handler sees the stopped clock through shared memory: had it kept the first
    // deadline, the run would have ended (and the question been withdrawn) before the answer.
    const { workspace } = await answeredAt(pastTheLimit());
    const outcome = await runCode(fixture!, `tools.write_file({ path: 'note.txt', content: 'hi' }); while (true) {}`);
    expect(outcome.content).toMatch(/^run_code stopped: the program ran past the wall-time limit of 2500 ms\./);
    expect(await readFile(path.join(workspace, 'note.txt'), 'utf8')).toBe('hi');
  });
});
