import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { errorMessage } from '../../../protocol/errors.ts';
import { deadlineReader } from './run-code-deadline.ts';
import { installFastCall } from './run-code-fast-call.ts';
import { newInterpreter, type Interpreter } from './run-code-interpreter.ts';
import { wrapProgram } from './run-code-prelude.ts';
import type { CallReply, LimitName, LogLevel, LogLine, SandboxStart, WorkerMessage } from './run-code-protocol.ts';

// One run_code program inside the sandbox worker: a QuickJS interpreter of its own (a WebAssembly
// instance and memory nobody used before), one runtime and one context in it. The program sees only
// `console.*` and `tools.*`. Each call it makes is sent to the host at once; replies are handed in
// as they come, all those waiting at a time together, and the program runs on once for each batch. Tool calls are bridged with plain QuickJS promises (never asyncify), so a
// call after an `await` is as safe as the first.

const LOG_LEVELS: ReadonlySet<string> = new Set(['log', 'info', 'warn', 'error']);

export interface ProgramHost {
  post(message: WorkerMessage): void;
}

export class SandboxProgram {
  /** Set once `done` or `failed` has been posted. */
  finished = false;
  /** Whether the program ended with `done` (the worker may then take another program). */
  succeeded = false;
  private stopped: LimitName | null = null;
  private readonly logs: LogLine[] = [];
  private logBytes = 0;
  /** Calls made and not yet answered. */
  private readonly open = new Set<number>();
  /** The id of the last call made (ids count up from the one the worker gave). */
  lastCallId: number;
  /** Set when the program's promise has settled (the prelude says so), or when that cannot be known. */
  private settledSeen = false;
  private readonly deadline: () => number;
  private readonly runtime: QuickJSRuntime;
  private readonly ctx: QuickJSContext;
  private readonly handles: QuickJSHandle[] = [];
  private render: QuickJSHandle | null = null;
  private deliver: QuickJSHandle | null = null;
  private watch: QuickJSHandle | null = null;
  private program: QuickJSHandle | null = null;
  private prelude: QuickJSHandle | null;
  private readonly quickjs: QuickJSWASMModule;

  private readonly start: SandboxStart;
  private readonly host: ProgramHost;

  /**
   * `interpreter`: one made ahead for this program's heap limit (run-code-interpreter.ts), used by
   * this program only, or a QuickJS instance to make it in now. `firstCallId`: the first nested call
   * id never given before in this worker.
   */
  constructor(
    interpreter: Interpreter | QuickJSWASMModule,
    start: SandboxStart,
    host: ProgramHost,
    firstCallId: number,
  ) {
    const made = 'prelude' in interpreter ? interpreter : newInterpreter(interpreter, start.limits.memoryBytes);
    this.quickjs = made.quickjs;
    this.start = start;
    this.host = host;
    this.lastCallId = firstCallId - 1;
    /** The wall-time deadline, moved by the host while a nested call waits for the person's approval. */
    this.deadline = deadlineReader(start.deadline);
    this.runtime = made.runtime;
    this.ctx = made.ctx;
    this.prelude = made.prelude;
    this.runtime.setMaxStackSize(start.limits.stackBytes);
    // Interrupts are uncatchable inside QuickJS: a program cannot swallow them with try/catch.
    this.runtime.setInterruptHandler(() => this.stopped !== null || Date.now() >= this.deadline());
  }

  /** The heap this program's interpreter was made for. */
  get memoryBytes(): number {
    return this.start.limits.memoryBytes;
  }

  /** Evaluates the program and runs it up to its first wait. */
  begin(): void {
    try {
      this.installPrelude();
    } catch (error) {
      return this.broken(error, 'the sandbox could not start');
    }
    const evaluated = this.ctx.evalCode(wrapProgram(this.start.code), 'program.js', { type: 'global' });
    if (evaluated.error) {
      // Only a syntax error fails synchronously: everything else rejects the program's promise.
      this.fail(`run_code failed: ${describeError(this.ctx, evaluated.error)}`);
      evaluated.error.dispose();
      return;
    }
    this.program = evaluated.value;
    const watched = this.ctx.callFunction(this.watch!, this.ctx.undefined, this.program);
    if (watched.error) {
      watched.error.dispose();
      this.settledSeen = true;
    } else watched.value.dispose();
    this.pump();
  }

  /** Settles the calls these replies answer (others are ignored), then lets the program run on. */
  receive(replies: readonly CallReply[]): void {
    if (this.finished) return;
    for (const reply of replies) {
      if (!this.open.delete(reply.id) || this.finished) continue;
      this.settleCall(reply);
    }
    this.pump();
  }

  /** Frees the interpreter; false when it could not be freed cleanly (the worker must not be reused). */
  dispose(): boolean {
    try {
      for (const handle of [this.program, this.prelude, this.render, this.deliver, this.watch, ...this.handles])
        handle?.dispose();
      this.ctx.dispose();
      this.runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  private installPrelude(): void {
    const { ctx } = this;
    const hostLog = ctx.newFunction('log', (levelHandle, textHandle) => {
      const level = ctx.getString(levelHandle);
      const text = ctx.getString(textHandle);
      this.logBytes += Buffer.byteLength(text) + 1;
      if (this.logBytes > this.start.limits.logBytes) {
        this.stop('logs');
        return;
      }
      this.logs.push({ level: (LOG_LEVELS.has(level) ? level : 'log') as LogLevel, text });
    });
    const callImpl = (idHandle: QuickJSHandle, nameHandle: QuickJSHandle, argsHandle: QuickJSHandle): void =>
      this.call(ctx.getNumber(idHandle), ctx.getString(nameHandle), ctx.getString(argsHandle));
    const hostCall = ctx.newFunction('call', callImpl);
    installFastCall(this.quickjs, ctx, callImpl, (id, name, argsJson) => this.call(id, name, argsJson));
    const hostSettled = ctx.newFunction('settled', () => {
      this.settledSeen = true;
    });
    this.handles.push(hostLog, hostCall, hostSettled);
    const names = ctx.newString(JSON.stringify(this.start.toolNames));
    const firstId = ctx.newNumber(this.lastCallId + 1);
    const exported = ctx.callFunction(this.prelude!, ctx.undefined, hostLog, hostCall, hostSettled, names, firstId);
    names.dispose();
    firstId.dispose();
    this.prelude!.dispose();
    this.prelude = null;
    const kept = ctx.unwrapResult(exported);
    this.render = ctx.getProp(kept, 'render');
    this.deliver = ctx.getProp(kept, 'deliver');
    this.watch = ctx.getProp(kept, 'watch');
    kept.dispose();
  }

  /** A nested call the program made; it must not throw (it may run outside the function glue). */
  private call(id: number, name: string, argsJson: string): void {
    if (this.finished) return;
    this.open.add(id);
    this.lastCallId = Math.max(this.lastCallId, id);
    // Sent at once: a call starts when the program makes it, even if the program stays busy after.
    try {
      this.host.post({ type: 'call', call: { id, name, argsJson } });
    } catch (error) {
      this.broken(error, 'a tool call could not be sent');
    }
  }

  private settleCall(reply: CallReply): void {
    const { ctx } = this;
    const id = ctx.newNumber(reply.id);
    const text = reply.ok ? (reply.json === null ? ctx.null : ctx.newString(reply.json)) : ctx.newString(reply.message);
    try {
      const settled = ctx.callFunction(this.deliver!, ctx.undefined, id, reply.ok ? ctx.true : ctx.false, text);
      if (settled.error) {
        // The only way to fail here is a result too large for the program's heap.
        const limit = limitOf(ctx, settled.error, this.stopped);
        settled.error.dispose();
        if (limit) this.stop(limit);
        else this.fail('run_code failed: the result of a tool call could not be handed to the program.');
      } else settled.value.dispose();
    } catch (error) {
      this.broken(error, 'the result of a tool call could not be handed to the program');
    } finally {
      id.dispose();
      text.dispose();
    }
  }

  /** Run everything the last replies unblocked, then see whether the program is over. */
  private pump(): void {
    if (this.finished) return;
    try {
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) {
        // Jobs after the failed one did not run: the prelude may not have said the program settled.
        jobs.error.dispose();
        this.settledSeen = true;
      }
      this.settle();
    } catch (error) {
      this.broken(error, 'the sandbox could not continue');
    }
  }

  private settle(): void {
    const { ctx } = this;
    if (this.stopped) return this.stop(this.stopped);
    if (Date.now() >= this.deadline()) return this.stop('wall');
    // Until the prelude says the program settled, it is pending: no need to ask the interpreter.
    const state = this.settledSeen ? ctx.getPromiseState(this.program!) : ({ type: 'pending' } as const);
    if (state.type === 'pending') {
      if (this.open.size === 0)
        this.fail(
          'run_code failed: the program is awaiting a promise that nothing can settle (no tool call is pending).',
        );
      return;
    }
    if (state.type === 'rejected') {
      const limit = limitOf(ctx, state.error, this.stopped);
      if (limit) this.stop(limit);
      else this.fail(`run_code failed: ${describeError(ctx, state.error)}`);
      state.error.dispose();
      return;
    }
    const rendered = ctx.callFunction(this.render!, ctx.undefined, state.value);
    if (state.value !== this.program) state.value.dispose();
    if (rendered.error) {
      const limit = limitOf(ctx, rendered.error, this.stopped);
      if (limit) this.stop(limit);
      else
        this.fail(
          `run_code failed: the return value could not be turned into text: ${describeError(ctx, rendered.error)}`,
        );
      rendered.error.dispose();
      return;
    }
    const output = ctx.typeof(rendered.value) === 'string' ? ctx.getString(rendered.value) : null;
    rendered.value.dispose();
    this.finished = true;
    this.succeeded = true;
    this.host.post({ type: 'done', logs: this.logs, output });
  }

  private fail(message: string, limit?: LimitName): void {
    if (this.finished) return;
    this.finished = true;
    this.host.post({ type: 'failed', logs: this.logs, message, ...(limit ? { limit } : {}) });
  }

  /** A limit hit: report it at once (the host ends the thread) and interrupt the program meanwhile. */
  private stop(limit: LimitName): void {
    this.stopped ??= limit;
    this.fail('', limit);
  }

  /** An exception from the interpreter itself: out of its memory, or worse. */
  private broken(error: unknown, what: string): void {
    if (/out of memory/i.test(errorMessage(error))) this.stop('memory');
    else this.fail(`run_code failed: ${what}: ${errorMessage(error)}`);
  }
}

/** QuickJS reports its own limits as InternalErrors with fixed messages. */
function limitOf(context: QuickJSContext, error: QuickJSHandle, stopped: LimitName | null): LimitName | null {
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
