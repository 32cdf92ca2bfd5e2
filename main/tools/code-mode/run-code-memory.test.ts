import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { INTERPRETER_BYTES, WORKER_HEAP_MB } from './run-code-memory.ts';
import { DEFAULT_RUN_CODE_LIMITS } from './run-code-protocol.ts';
import { createRunCodeTool } from './run-code.ts';
import { peakGrowth } from '../../../test/peak-memory.ts';

// The heap limit holds against allocations QuickJS's own accounting cannot see: a program that
// keeps 1 500 strings of 1 MiB each (1.5 GiB) is stopped at the default 64 MiB, the process does
// not grow past what the sandbox's caps allow, and the next program runs as usual.

const MiB = 1024 * 1024;
let root: string;
let registry: ToolRegistry;

beforeEach(async () => {
  const temp = await makeTempWorkspace('aether-run-code-memory-');
  root = temp.root;
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody to ask'));
  registry = new ToolRegistry({
    workspace: temp.workspace,
    sessionDir: temp.sessionDir,
    sink: new StatusRecorder(),
    gate,
  });
  registry.register(createRunCodeTool({ tools: () => [] }));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

let calls = 0;
function runCode(code: string) {
  calls += 1;
  return registry.call({ callId: `memory-${calls}`, name: 'run_code', args: { code } });
}

// Generous timeouts: filling 80 MiB of interpreter memory is slow on a loaded two-core machine.
describe('run_code memory limit', { timeout: 60_000 }, () => {
  it('stops a program holding 1 500 strings of 1 MiB with the memory-limit error, within a bounded process size', async () => {
    const { value: outcome, growth } = await peakGrowth(() =>
      runCode(
        `const keep = []; for (let i = 0; i < 1500; i++) keep.push('x'.repeat(1024 * 1024) + i); return keep.length;`,
      ),
    );
    expect(outcome).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^run_code stopped: the program ran out of its heap limit of 64 MiB\./),
    });
    // What the caps allow one sandbox thread: its WebAssembly memory at its maximum, its V8 heap
    // limit, and 128 MiB for the thread itself (its isolate, young generation and compiled code).
    const bound = INTERPRETER_BYTES + DEFAULT_RUN_CODE_LIMITS.memoryBytes + WORKER_HEAP_MB * MiB + 128 * MiB;
    expect(growth).toBeLessThan(bound);
  });

  it('stops a single allocation larger than the heap limit', async () => {
    const outcome = await runCode(`const big = 'x'.repeat(200 * 1024 * 1024); return big.length;`);
    expect(outcome.content).toMatch(/^run_code stopped: the program ran out of its heap limit of 64 MiB\./);
  });

  it('runs the next program as usual after one was stopped at the memory limit', async () => {
    await runCode(`const keep = []; while (true) keep.push('y'.repeat(1024 * 1024));`);
    const outcome = await runCode(`return [1, 2, 3].map((n) => n * 2).join(',');`);
    expect(outcome).toMatchObject({ isError: false, content: '2,4,6' });
  });
});
