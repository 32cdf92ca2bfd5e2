// The memory a run_code sandbox may use, as a WebAssembly memory with a fixed maximum. Growing the
// memory is the only way the interpreter gets more: once it is at its maximum, malloc fails inside
// QuickJS, which throws "out of memory", whatever its own accounting says. Nothing a program does
// can raise the maximum, so this is the cap the process relies on.

const WASM_PAGE_BYTES = 64 * 1024;

/** The worker thread's own V8 heap (message copies, the strings a program's values become). */
export const WORKER_HEAP_MB = 256;

/**
 * What the interpreter needs before the program allocates anything: the module's initial memory
 * (its static data, the C stack and the runtime's own tables; the module asks for 16 MiB).
 */
export const INTERPRETER_BYTES = 16 * 1024 * 1024;

/** The part of the WebAssembly API used here: main/ compiles without the DOM library that declares it. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
  }
).WebAssembly;

/** A memory that starts as the module expects and can hold `heapBytes` more, never more than that. */
export function sandboxMemory(heapBytes: number): WasmMemory {
  return new Memory({
    initial: INTERPRETER_BYTES / WASM_PAGE_BYTES,
    maximum: Math.ceil((INTERPRETER_BYTES + heapBytes) / WASM_PAGE_BYTES),
  });
}
