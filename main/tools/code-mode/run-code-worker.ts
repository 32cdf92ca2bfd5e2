import { parentPort, workerData } from 'node:worker_threads';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
} from 'quickjs-emscripten';
import { errorMessage } from '../../../protocol/errors.ts';
import { sandboxMemory } from './run-code-memory.ts';
import { deadlineReader } from './run-code-deadline.ts';
import { PRELUDE, wrapProgram } from './run-code-prelude.ts';
import type {
  HostMessage,
  LimitName,
  LogLevel,
  LogLine,
  SandboxStart,
  WarmStart,
  WorkerMessage,
} from './run-code-protocol.ts';

// The run_code sandbox: one worker thread per run, one QuickJS runtime inside it. The program
// sees only `console.*` and `tools.*`; each tool call is a message to the host, answered with
// JSON text. Tool calls are bridged with plain QuickJS promises (never asyncify), so a call after
// an `await` is as safe as the first. The host terminates this thread when the run is over.
// A warm worker loads QuickJS before it has a program and then waits for its one program; either
// way a worker runs exactly one program, in a runtime and context of its own.

const initial = workerData as SandboxStart | WarmStart;
const port = parentPort;
if (!port) throw new Error('run-code-worker.ts runs only as a worker thread.');

const LOG_LEVELS: ReadonlySet<string> = new Set(['log', 'info', 'warn', 'error']);

let finished = false;
let stopped: LimitName | null = null;
const logs: LogLine[] = [];
let logBytes = 0;
const pending = new Map<number, QuickJSDeferredPromise>();
let nextCallId = 0;

function post(message: WorkerMessage): void {
  port!.postMessage(message);
}

function succeed(output: string | null): void {
  if (finished) return;
  finished = true;
  post({ type: 'done', logs, output });
}

function fail(message: string, limit?: LimitName): void {
  if (finished) return;
  finished = true;
  post({ type: 'failed', logs, message, ...(limit ? { limit } : {}) });
}

/** A limit hit: report it at once (the host ends the thread) and interrupt the program meanwhile. */
function stop(limit: LimitName): void {
  stopped ??= limit;
  fail('', limit);
}

// QuickJS's own accounting cannot see the size of large allocations in this WebAssembly build, so
// the heap limit is the WebAssembly memory's maximum: past it malloc fails and QuickJS throws
// "out of memory". The accounting still catches many small allocations early.
const QuickJS = await newQuickJSWASMModuleFromVariant(
  newVariant(RELEASE_SYNC, {
    wasmMemory: sandboxMemory('warm' in initial ? initial.memoryBytes : initial.limits.memoryBytes),
  }),
);
const start: SandboxStart = 'warm' in initial ? await programArrives() : initial;
/** The wall-time deadline, moved by the host while a nested call waits for the person's approval. */
const deadline = deadlineReader(start.deadline);

/** A warm worker says it is ready, then waits for its program. */
function programArrives(): Promise<SandboxStart> {
  const arrived = new Promise<SandboxStart>((resolve) => port!.once('message', resolve));
  post({ type: 'ready' });
  return arrived;
}
const runtime = QuickJS.newRuntime();
runtime.setMemoryLimit(start.limits.memoryBytes);
runtime.setMaxStackSize(start.limits.stackBytes);
// Interrupts are uncatchable inside QuickJS: a program cannot swallow them with try/catch.
runtime.setInterruptHandler(() => stopped !== null || Date.now() >= deadline());
const ctx = runtime.newContext();

const hostLog = ctx.newFunction('log', (levelHandle, textHandle) => {
  const level = ctx.getString(levelHandle);
  const text = ctx.getString(textHandle);
  logBytes += Buffer.byteLength(text) + 1;
  if (logBytes > start.limits.logBytes) {
    stop('logs');
    return;
  }
  logs.push({ level: (LOG_LEVELS.has(level) ? level : 'log') as LogLevel, text });
});

const hostCall = ctx.newFunction('call', (nameHandle, argsHandle) => {
  nextCallId += 1;
  const id = nextCallId;
  const deferred = ctx.newPromise();
  pending.set(id, deferred);
  post({ type: 'call', id, name: ctx.getString(nameHandle), argsJson: ctx.getString(argsHandle) });
  return deferred.handle;
});

const render = installPrelude(ctx);
const evaluated = ctx.evalCode(wrapProgram(start.code), 'program.js', { type: 'global' });
if (evaluated.error) {
  // Only a syntax error fails synchronously: everything else rejects the program's promise.
  fail(`run_code failed: ${describeError(ctx, evaluated.error)}`);
  evaluated.error.dispose();
} else {
  const program = evaluated.value;
  port.on('message', (message: HostMessage) => {
    answer(message);
    pump(program);
  });
  pump(program);
}

function installPrelude(context: QuickJSContext): QuickJSHandle {
  const prelude = context.unwrapResult(context.evalCode(PRELUDE, 'prelude.js', { type: 'global', strict: true }));
  const names = context.newString(JSON.stringify(start.toolNames));
  const renderer = context.unwrapResult(context.callFunction(prelude, context.undefined, hostLog, hostCall, names));
  names.dispose();
  prelude.dispose();
  return renderer;
}

function answer(message: HostMessage): void {
  const deferred = pending.get(message.id);
  if (!deferred) return;
  pending.delete(message.id);
  try {
    if (message.ok) {
      const value = message.json === null ? ctx.null : ctx.newString(message.json);
      deferred.resolve(value);
      value.dispose();
    } else {
      const error = ctx.newError(message.message);
      deferred.reject(error);
      error.dispose();
    }
  } catch (error) {
    // The only way to fail here is a result too large for the program's heap.
    if (isOutOfMemory(error)) stop('memory');
    else fail(`run_code failed: the result of a tool call could not be handed to the program: ${errorMessage(error)}`);
  } finally {
    deferred.dispose();
  }
}

/** Run everything the last answer unblocked, then see whether the program is over. */
function pump(program: QuickJSHandle): void {
  if (finished) return;
  try {
    const jobs = runtime.executePendingJobs();
    jobs.error?.dispose();
    settle(program);
  } catch (error) {
    if (isOutOfMemory(error)) stop('memory');
    else fail(`run_code failed: the sandbox could not continue: ${errorMessage(error)}`);
  }
}

function settle(program: QuickJSHandle): void {
  if (stopped) return stop(stopped);
  if (Date.now() >= deadline()) return stop('wall');
  const state = ctx.getPromiseState(program);
  if (state.type === 'pending') {
    if (pending.size === 0)
      fail('run_code failed: the program is awaiting a promise that nothing can settle (no tool call is pending).');
    return;
  }
  if (state.type === 'rejected') {
    const limit = limitOf(ctx, state.error);
    if (limit) stop(limit);
    else fail(`run_code failed: ${describeError(ctx, state.error)}`);
    state.error.dispose();
    return;
  }
  const rendered = ctx.callFunction(render, ctx.undefined, state.value);
  state.value.dispose();
  if (rendered.error) {
    const limit = limitOf(ctx, rendered.error);
    if (limit) stop(limit);
    else fail(`run_code failed: the return value could not be turned into text: ${describeError(ctx, rendered.error)}`);
    rendered.error.dispose();
    return;
  }
  const output = ctx.typeof(rendered.value) === 'string' ? ctx.getString(rendered.value) : null;
  rendered.value.dispose();
  succeed(output);
}

/** QuickJS reports its own limits as InternalErrors with fixed messages. */
function limitOf(context: QuickJSContext, error: QuickJSHandle): LimitName | null {
  const { name, message } = errorFields(context, error);
  if (name !== 'InternalError') return null;
  if (message === 'out of memory') return 'memory';
  if (message === 'stack overflow') return 'stack';
  if (message === 'interrupted') return stopped ?? 'wall';
  return null;
}

/** `Name: message` and the first frame of the program, for the model to act on. */
function describeError(context: QuickJSContext, error: QuickJSHandle): string {
  const { name, message, stack, isObject } = errorFields(context, error);
  if (!isObject || message === undefined) return `the program threw ${primitiveText(context, error)}`;
  const frame = stack?.split('\n').find((line) => line.includes('program.js'));
  return `${name ?? 'Error'}: ${message}${frame ? `\n${frame.trimEnd()}` : ''}`;
}

function errorFields(
  context: QuickJSContext,
  error: QuickJSHandle,
): { name?: string; message?: string; stack?: string; isObject: boolean } {
  if (context.typeof(error) !== 'object') return { isObject: false };
  const read = (key: string): string | undefined => {
    const result = context.getProp(error, key);
    const text = context.typeof(result) === 'string' ? context.getString(result) : undefined;
    result.dispose();
    return text;
  };
  const name = read('name');
  const message = read('message');
  const stack = read('stack');
  return {
    isObject: true,
    ...(name !== undefined ? { name } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(stack !== undefined ? { stack } : {}),
  };
}

function primitiveText(context: QuickJSContext, value: QuickJSHandle): string {
  const type = context.typeof(value);
  if (type === 'string') return JSON.stringify(context.getString(value));
  if (type === 'object') return 'an object that is not an Error';
  try {
    return String(context.dump(value));
  } catch {
    return `a ${type}`;
  }
}

function isOutOfMemory(error: unknown): boolean {
  return /out of memory/i.test(errorMessage(error));
}
