import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { sandboxMemory } from './run-code-memory.ts';
import { newInterpreter, type Interpreter } from './run-code-interpreter.ts';
import { SandboxProgram } from './run-code-program.ts';
import { ReplyReader } from './run-code-replies.ts';
import { compiledQuickJS, useCompiledQuickJS } from './run-code-wasm.ts';
import type { CallReply, HostMessage, SandboxStart, SandboxWorkerData, WorkerMessage } from './run-code-protocol.ts';

// The run_code sandbox worker. It runs one program at a time, each in a QuickJS interpreter of its
// own: a new WebAssembly instance and memory, a new runtime and context (run-code-program.ts), so
// nothing one program leaves behind is there for the next. A worker whose program ended well is
// given the next program; one whose program failed, hit a limit or was cancelled is terminated by
// the host. Keeping the thread keeps its compiled code warm, which is most of what a nested call
// costs in a new thread. The interpreter for the next program is made ready as soon as one is over.
// A warm worker (WarmStart) loads its interpreter before it has a program and says so.

const { wasm, ...initial } = workerData as SandboxWorkerData;
const port = parentPort;
if (!port) throw new Error('run-code-worker.ts runs only as a worker thread.');
if (wasm) useCompiledQuickJS(wasm);

/** The last nested call id given in this worker: each program's ids start after it. */
let calls = 0;
const host = {
  post: (message: WorkerMessage): void => port.postMessage(message),
};

/** An interpreter ready for the next program, with the heap it was made for. */
let next: { memoryBytes: number; interpreter: Promise<Interpreter> } | null = null;

// QuickJS's own accounting cannot see the size of large allocations in this WebAssembly build, so
// the heap limit is the WebAssembly memory's maximum: past it malloc fails and QuickJS throws
// "out of memory". The accounting still catches many small allocations early.
// The module's code is compiled once per worker (run-code-wasm.ts); each interpreter is a new
// instance of it with a new memory, and its runtime, context and compiled prelude are made here,
// before the program arrives (run-code-interpreter.ts).
function prepare(memoryBytes: number): Promise<Interpreter> {
  const interpreter = compiledQuickJS().then(async (wasmModule) => {
    const quickjs: QuickJSWASMModule = await newQuickJSWASMModuleFromVariant(
      newVariant(RELEASE_SYNC, { wasmMemory: sandboxMemory(memoryBytes), ...(wasmModule ? { wasmModule } : {}) }),
    );
    return newInterpreter(quickjs, memoryBytes);
  });
  // A failure shows when a program asks for this interpreter.
  interpreter.catch(() => undefined);
  next = { memoryBytes, interpreter };
  return interpreter;
}

async function run(start: SandboxStart): Promise<void> {
  if (next?.memoryBytes !== start.limits.memoryBytes) prepare(start.limits.memoryBytes);
  const interpreter = await next!.interpreter;
  next = null;
  const program = new SandboxProgram(interpreter, start, host, calls + 1);
  program.begin();
  // While the program waits on its calls there is nothing else to run: the worker blocks until the
  // host writes their replies (run-code-replies.ts), and the program runs on once for all of them.
  const replies = new ReplyReader(start.replies);
  while (!program.finished) program.receive(replies.take(posted));
  over(program);
}

/** A reply the host sent as a message (too large for the shared buffer). */
function posted(): CallReply | undefined {
  const received = receiveMessageOnPort(port!)?.message as HostMessage | undefined;
  return received?.type === 'reply' ? received : undefined;
}

/**
 * A program is over: free its interpreter and make the next one ready, then say so (the host's
 * sandboxReady waits for that); leave if the interpreter cannot be freed or the next one made.
 */
function over(program: SandboxProgram): void {
  calls = Math.max(calls, program.lastCallId);
  if (!program.succeeded) return; // the host terminates this thread
  if (!program.dispose()) process.exit(1);
  prepare(program.memoryBytes).then(
    () => host.post({ type: 'ready' }),
    () => process.exit(1),
  );
}

// Only programs come as events: replies are taken while a program runs (run above).
port.on('message', (message: HostMessage) => {
  if (message.type === 'program') void run(message.start);
});

if ('warm' in initial) {
  await prepare(initial.memoryBytes);
  host.post({ type: 'ready' });
} else {
  await run(initial);
}
