import { errorMessage } from '../../../protocol/errors.ts';
import { WallDeadline } from './run-code-deadline.ts';
import { ReplyWriter } from './run-code-replies.ts';
import { releaseSandbox, sandboxWorker } from './warm-sandbox.ts';
import {
  limitMessage,
  type CallReply,
  type CallRequest,
  type LimitName,
  type LogLine,
  type RunCodeLimits,
  type SandboxStart,
  type WorkerMessage,
} from './run-code-protocol.ts';
import { ToolError, type DispatchOptions, type DispatchResult } from '../tool.ts';

// The host side of one run_code program: starts the sandbox worker, answers its tool calls through
// the registry (via `dispatch`), and enforces what the worker cannot: wall time while the program
// waits on a call, the nested-call budget, cancellation. Whatever ends the run, calls still running
// are cancelled before the outcome is returned; the worker is terminated unless the program ended
// well (then it is kept for the next program, which gets an interpreter of its own). Time a nested
// call spends waiting for the person's approval does not count against the wall-time limit.
//
// Packaging note: the worker is a separate entry point (run-code-worker.ts); a bundle must emit it
// as its own file next to warm-sandbox.ts, which starts it.

export interface ProgramOutcome {
  logs: LogLine[];
  /** The return value as text (JSON for anything but a string); null when it returned nothing. */
  output: string | null;
  /** Nested calls the program made. */
  calls: number;
}

export interface RunProgramOptions {
  toolNames: string[];
  limits: RunCodeLimits;
  /** The run's cancellation: aborting it terminates the worker. */
  signal: AbortSignal;
  dispatch(name: string, args: unknown, options: Required<DispatchOptions>): Promise<DispatchResult>;
}

/** Grace for cancelled nested calls to report before the outer call completes. */
const CANCEL_GRACE_MS = 2000;

export async function runProgram(code: string, options: RunProgramOptions): Promise<ProgramOutcome> {
  const { limits, signal } = options;
  if (signal.aborted) throw abortError();
  const wall = new WallDeadline(limits.wallMs);
  const replies = new ReplyWriter();
  const start: SandboxStart = {
    code,
    toolNames: options.toolNames,
    limits,
    deadline: wall.shared,
    replies: replies.shared,
  };
  const worker = sandboxWorker(start);
  const calls = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const allowed = new Set(options.toolNames);
  let callCount = 0;

  const settled = new Promise<ProgramOutcome>((resolve, reject) => {
    let over = false;
    const end = (outcome: { ok: true; value: ProgramOutcome } | { ok: false; error: Error }): void => {
      if (over) return;
      over = true;
      wall.end();
      signal.removeEventListener('abort', onAbort);
      // A worker whose program ended well takes the next one; any other is ended with its program.
      if (outcome.ok) releaseSandbox(worker, limits.memoryBytes);
      else void worker.terminate();
      calls.abort();
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    };
    const limitHit = (limit: LimitName): void => end({ ok: false, error: new ToolError(limitMessage(limit, limits)) });
    const onAbort = (): void => end({ ok: false, error: abortError() });
    wall.start(() => limitHit('wall'));
    signal.addEventListener('abort', onAbort, { once: true });

    const post = (reply: CallReply): void => worker.postMessage(reply);
    worker.on('message', (message: WorkerMessage) => {
      if (over || message.type === 'ready') return;
      if (message.type === 'done')
        return end({ ok: true, value: { logs: message.logs, output: message.output, calls: callCount } });
      if (message.type === 'failed') {
        return end({
          ok: false,
          error: new ToolError(message.limit ? limitMessage(message.limit, limits) : message.message),
        });
      }
      callCount += 1;
      if (callCount > limits.maxCalls) return limitHit('calls');
      const dispatch = { signal: calls.signal, onApprovalWait: () => wall.pause() };
      const call = answer(message.call, allowed, options, dispatch).then((reply) => {
        if (!over) replies.send(reply, post);
      });
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    });
    worker.on('error', (error) => {
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      end({
        ok: false,
        error: outOfMemory
          ? new ToolError(limitMessage('memory', limits))
          : new ToolError(`run_code failed: the sandbox stopped unexpectedly: ${error.message}`),
      });
    });
    worker.on('exit', (exitCode) => {
      end({
        ok: false,
        error: new ToolError(`run_code failed: the sandbox exited (code ${exitCode}) before the program finished.`),
      });
    });
  });

  try {
    return await settled;
  } finally {
    // Calls the program left running were cancelled by `end`; let them report before the card closes.
    await settleWithin([...inFlight], CANCEL_GRACE_MS);
  }
}

async function answer(
  message: CallRequest,
  allowed: ReadonlySet<string>,
  options: RunProgramOptions,
  dispatch: Required<DispatchOptions>,
): Promise<CallReply> {
  const { id, name } = message;
  if (!allowed.has(name))
    return { type: 'reply', id, ok: false, message: `tools.${name} is not available inside run_code.` };
  let args: unknown;
  try {
    args = JSON.parse(message.argsJson);
  } catch {
    return { type: 'reply', id, ok: false, message: `The arguments of tools.${name} are not JSON.` };
  }
  let result: DispatchResult;
  try {
    result = await options.dispatch(name, args, dispatch);
  } catch (error) {
    return { type: 'reply', id, ok: false, message: errorMessage(error) };
  }
  if (result.isError) return { type: 'reply', id, ok: false, message: result.content };
  return { type: 'reply', id, ok: true, json: programValue(result) };
}

/**
 * What a successful nested call gives the program: the tool's structured result, or its text when
 * the tool has no structured result or the result is not plain JSON.
 */
export function programValue(result: DispatchResult): string {
  if (result.result !== undefined) {
    try {
      const json = JSON.stringify(result.result);
      if (json !== undefined) return json;
    } catch {
      // A result JSON cannot express (a BigInt, a cycle): the text always can.
    }
  }
  return JSON.stringify(result.content);
}

async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(promises), grace]);
  clearTimeout(timer);
}

function abortError(): Error {
  return new DOMException('run_code was cancelled.', 'AbortError');
}
