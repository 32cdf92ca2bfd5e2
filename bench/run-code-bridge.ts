import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { WallDeadline } from '../main/tools/code-mode/run-code-deadline.ts';
import { sandboxMemory } from '../main/tools/code-mode/run-code-memory.ts';
import { SandboxProgram } from '../main/tools/code-mode/run-code-program.ts';
import {
  DEFAULT_RUN_CODE_LIMITS,
  type CallReply,
  type CallRequest,
  type WorkerMessage,
} from '../main/tools/code-mode/run-code-protocol.ts';

// The sandbox's share of a nested call, alone: the same program in a SandboxProgram (QuickJS, its
// glue, the prelude) driven in this thread, each call answered at once with its own arguments. No
// thread, no message, no tool: what is left of a nested call once the hand-offs and the registry
// are taken out.

/** Milliseconds for `program` (which makes `calls` nested calls) in a new interpreter; loading it is not timed. */
export async function sandboxAlone(program: string, calls: number, expected: string): Promise<number> {
  const limits = { ...DEFAULT_RUN_CODE_LIMITS, maxCalls: calls };
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, { wasmMemory: sandboxMemory(limits.memoryBytes) }),
  );
  const wall = new WallDeadline(limits.wallMs);
  const asked: CallRequest[] = [];
  let last: WorkerMessage | null = null;
  const host = {
    post(message: WorkerMessage): void {
      if (message.type === 'call') asked.push(message.call);
      else last = message;
    },
  };
  const sandbox = new SandboxProgram(
    quickjs,
    { code: program, toolNames: ['noop'], limits, deadline: wall.shared, replies: new SharedArrayBuffer(8) },
    host,
    1,
  );
  const start = performance.now();
  sandbox.begin();
  while (!sandbox.finished) {
    const replies: CallReply[] = asked
      .splice(0)
      .map((call) => ({ type: 'reply', id: call.id, ok: true, json: call.argsJson }));
    sandbox.receive(replies);
  }
  const ms = performance.now() - start;
  wall.end();
  sandbox.dispose();
  const done = last as WorkerMessage | null;
  if (done?.type !== 'done' || done.output !== expected)
    throw new Error(`the sandbox alone gave ${JSON.stringify(done)}`);
  return ms;
}
