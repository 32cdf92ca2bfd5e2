import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

// QuickJS's WebAssembly code, compiled once per sandbox worker. Every program still gets an
// interpreter of its own — a new instance of this module with a new memory — but instantiating an
// already compiled module takes about a millisecond, where compiling its bytes again took most of
// the time between one program's end and the next interpreter being ready. A compiled module holds
// only code, never state: nothing one program does can reach the next through it.

/** The part of the WebAssembly API used here: main/ compiles without the DOM library that declares it. */
export type CompiledWasm = object;

const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } })
  .WebAssembly;

/** Where the release build quickjs-emscripten loads lives: resolved as quickjs-emscripten resolves it. */
function wasmFile(): string {
  const fromHere = createRequire(import.meta.url);
  return createRequire(fromHere.resolve('quickjs-emscripten')).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
}

let compiled: Promise<CompiledWasm | undefined> | null = null;
let done: CompiledWasm | undefined;

/**
 * The compiled QuickJS module, or undefined when its file cannot be found or compiled: the caller
 * then lets quickjs-emscripten load it the usual way (slower per interpreter, same interpreter).
 */
export function compiledQuickJS(): Promise<CompiledWasm | undefined> {
  compiled ??= (async () => {
    try {
      done = await compile(await readFile(wasmFile()));
      return done;
    } catch {
      return undefined;
    }
  })();
  return compiled;
}

/**
 * The module if this thread has compiled it already (or been given it). The host compiles it once
 * and hands it to each new sandbox worker, which then starts without compiling it again; a compiled
 * module can be shared between the threads of one process.
 */
export function compiledQuickJSNow(): CompiledWasm | undefined {
  return done;
}

/** Uses a module compiled by another thread of this process instead of compiling it here. */
export function useCompiledQuickJS(module: CompiledWasm): void {
  done = module;
  compiled = Promise.resolve(module);
}
