import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCode, runCodeFixture, type RunCodeFixture } from '../../../test/run-code-fixture.ts';
import { coolSandbox, sandboxReady } from './warm-sandbox.ts';

// A runtime kept warm between programs is a worker with QuickJS loaded and no program yet (or the
// worker of a program that ended well): each program still gets an interpreter, a runtime and a
// context nobody used before.

let fixture: RunCodeFixture;

beforeEach(async () => {
  fixture = await runCodeFixture();
});

afterEach(async () => {
  await fixture.dispose();
  await coolSandbox();
});

describe('the warm run_code runtime', () => {
  it('runs the next program in a fresh context: nothing the previous one left is there', async () => {
    const first = await runCode(
      fixture,
      `globalThis.leftOver = 'secret'; Object.prototype.polluted = 1; return 'set';`,
    );
    expect(first.content).toBe('set');
    await sandboxReady();
    const second = await runCode(fixture, `return [typeof globalThis.leftOver, typeof ({}).polluted].join(',');`);
    expect(second.content).toBe('undefined,undefined');
  });

  it('gives the next program the whole heap limit, whatever the previous one held when it returned', async () => {
    // Each program holds 5 of an 8 MiB limit when it returns (the second in the worker the first
    // ended well in): had the next one shared what the previous one left, it would run out of memory.
    const small = await runCodeFixture({ limits: { memoryBytes: 8 * 1024 * 1024 } });
    try {
      const hold = `globalThis.kept = 'x'.repeat(5 * 1024 * 1024); return kept.length;`;
      for (let index = 0; index < 2; index += 1) {
        await sandboxReady();
        expect(await runCode(small, hold)).toMatchObject({ isError: false, content: String(5 * 1024 * 1024) });
      }
    } finally {
      await small.dispose();
    }
  });

  it('runs programs one after another on warm runtimes, each with its own tools and result', async () => {
    for (let index = 0; index < 3; index += 1) {
      await sandboxReady();
      const outcome = await runCode(fixture, `return ${index} * 2;`);
      expect(outcome).toMatchObject({ isError: false, content: String(index * 2) });
    }
  });
});
