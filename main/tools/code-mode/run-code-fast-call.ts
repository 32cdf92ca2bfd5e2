import type { QuickJSContext, QuickJSWASMModule } from 'quickjs-emscripten';

// The hot host function of a program — the nested call, made once per tool call — read through
// quickjs-emscripten's FFI instead of its generic function glue. The generic glue wraps every call
// from QuickJS into the host in a generator-driven scope with a handle object per argument (≈20 µs
// a call here, as much as the rest of a nested call's work in the sandbox). This path reads the
// arguments straight from the interpreter's memory and returns `undefined` (a null pointer). It
// relies on how quickjs-emscripten 0.32 dispatches host calls (the dependency is pinned exactly);
// where that is not found, the generic glue stays in place and only the speed differs.

/** What the fast path receives: the call's id and two strings (name, arguments as JSON). */
export type FastCall = (id: number, name: string, argsJson: string) => void;

interface ContextInternals {
  ctx?: { value?: unknown };
  module?: { UTF8ToString?: (pointer: number) => string };
  cToHostCallbacks?: {
    callFunction?: (ctx: number, thisPtr: number, argc: number, argv: number, fnId: number) => number;
  };
  getFunction?: (fnId: number) => unknown;
}

/**
 * Makes `marker` (a function already given to ctx.newFunction) run `call` through the fast path.
 * false when quickjs-emscripten's internals are not as expected: `marker` then runs as it is.
 */
export function installFastCall(
  quickjs: QuickJSWASMModule,
  context: QuickJSContext,
  marker: unknown,
  call: FastCall,
): boolean {
  const internals = context as unknown as ContextInternals;
  const callbacks = internals.cToHostCallbacks;
  const generic = callbacks?.callFunction;
  const toString = internals.module?.UTF8ToString;
  const getFunction = internals.getFunction;
  const ctxPtr = internals.ctx?.value;
  if (!callbacks || !generic || !toString || !getFunction || typeof ctxPtr !== 'number') return false;
  const ffi = quickjs.getFFI();
  const module = internals.module!;
  const text = (value: number): string => {
    const chars = ffi.QTS_GetString(ctxPtr as never, value as never) as unknown as number;
    try {
      return toString.call(module, chars);
    } finally {
      ffi.QTS_FreeCString(ctxPtr as never, chars as never);
    }
  };
  let markerId: number | null = null;
  callbacks.callFunction = (ctx, thisPtr, argc, argv, fnId) => {
    if (markerId === null && ctx === ctxPtr && getFunction.call(context, fnId) === marker) markerId = fnId;
    if (fnId !== markerId || ctx !== ctxPtr || argc !== 3) return generic(ctx, thisPtr, argc, argv, fnId);
    const arg = (index: number): number =>
      ffi.QTS_ArgvGetJSValueConstPointer(argv as never, index) as unknown as number;
    call(ffi.QTS_GetFloat64(ctxPtr as never, arg(0) as never), text(arg(1)), text(arg(2)));
    return 0;
  };
  return true;
}
