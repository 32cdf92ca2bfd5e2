import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { PRELUDE } from './run-code-prelude.ts';

// The interpreter one program will run in, made before the program arrives: a runtime and a context
// in a QuickJS instance nobody used before, with the prelude compiled (not yet run: it learns the
// program's tools when the program starts). It is given to exactly one program and freed with it;
// making it ahead only moves the work to the moment the worker is idle.

export interface Interpreter {
  quickjs: QuickJSWASMModule;
  runtime: QuickJSRuntime;
  ctx: QuickJSContext;
  /** The prelude's function (run-code-prelude.ts), not yet called. */
  prelude: QuickJSHandle;
}

/**
 * A new runtime and context in `quickjs` for a program with this heap limit, the prelude compiled.
 * It throws when the instance cannot hold them; the worker then leaves rather than run anything in it.
 */
export function newInterpreter(quickjs: QuickJSWASMModule, memoryBytes: number): Interpreter {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  const ctx = runtime.newContext();
  const prelude = ctx.unwrapResult(ctx.evalCode(PRELUDE, 'prelude.js', { type: 'global', strict: true }));
  return { quickjs, runtime, ctx, prelude };
}
