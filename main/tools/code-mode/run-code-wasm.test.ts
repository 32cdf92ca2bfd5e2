import { describe, expect, it } from 'vitest';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { sandboxMemory } from './run-code-memory.ts';
import { compiledQuickJS } from './run-code-wasm.ts';

// The sandbox worker compiles QuickJS's WebAssembly once and makes each program's interpreter a new
// instance of it: the file must be found (else every interpreter compiles it again), and two
// instances must share nothing.

describe('the compiled QuickJS module', () => {
  it('is found and compiled, and is the same module every time it is asked for', async () => {
    const first = await compiledQuickJS();
    expect(first).toBeDefined();
    expect(await compiledQuickJS()).toBe(first);
  });

  it('makes interpreters with memories and globals of their own', async () => {
    const wasmModule = await compiledQuickJS();
    const make = (memory: ReturnType<typeof sandboxMemory>) =>
      newQuickJSWASMModuleFromVariant(
        newVariant(RELEASE_SYNC, { wasmMemory: memory, ...(wasmModule ? { wasmModule } : {}) }),
      );
    const memories = [sandboxMemory(1024 * 1024), sandboxMemory(1024 * 1024)];
    const [one, two] = await Promise.all(memories.map(make));
    const left = one!.newContext();
    const right = two!.newContext();
    try {
      left.unwrapResult(left.evalCode(`globalThis.mark = 'left'; Object.prototype.polluted = 1;`)).dispose();
      const seen = right.unwrapResult(right.evalCode(`typeof globalThis.mark + ',' + typeof ({}).polluted`));
      expect(right.getString(seen)).toBe('undefined,undefined');
      seen.dispose();
      expect(one!.getWasmMemory()).toBe(memories[0]);
      expect(two!.getWasmMemory()).toBe(memories[1]);
    } finally {
      left.dispose();
      right.dispose();
    }
  });
});
