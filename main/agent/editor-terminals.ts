import { EXEC_DEFAULT_TIMEOUT_S, type ExecArgs } from '../../protocol/tool-args.ts';
import { errorMessage } from '../../protocol/errors.ts';
import { formatBytes } from '../../protocol/format.ts';
import type { ExecRun } from '../../protocol/tools.ts';
import { commandEnvironment, DEFAULT_COMMAND_ENV_POLICY } from '../tools/exec/command-env.ts';
import { captureOutput, execRunOf, type CommandEnd } from '../tools/exec/exec-output.ts';
import type { AnyTool, ToolContext } from '../tools/tool.ts';

// The terminals of an editor that drives the session (an ACP client that offers them): a command
// `exec` runs in the foreground goes to a terminal of the editor, so the person sees it there as it
// runs. What the model gets is made as for a command run here — the same status line, output limits
// and spill file — from the output the terminal kept; the gate asked before, and the timeout and a
// Stop kill it through the editor. A command in the background or in a terminal of its own (the
// session's processes), one the sandbox holds, and one whose preview was kept run here as before.

/** What the editor's terminal kept of a command's output, and how it ended once it has. */
export interface EditorTerminalOutput {
  output: string;
  /** The editor dropped the oldest output to stay within `outputByteLimit`. */
  truncated: boolean;
}

export interface EditorTerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** One terminal the editor opened for a command; `release` frees it (its output stays on the editor's tool call). */
export interface EditorTerminal {
  output(): Promise<EditorTerminalOutput>;
  waitForExit(): Promise<EditorTerminalExit>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

export interface EditorTerminalRequest {
  command: string;
  args: string[];
  cwd: string;
  outputByteLimit: number;
  /** The call the terminal runs for: the editor shows the terminal on it. */
  callId: string;
}

/** An editor's terminals: `create` rejects when the editor cannot run the command. */
export interface EditorTerminals {
  create(request: EditorTerminalRequest): Promise<EditorTerminal>;
}

/** The most output asked of the editor's terminal: more than any result keeps, so its tail is whole. */
export const TERMINAL_OUTPUT_LIMIT = 8 * 1024 * 1024;

/** A session's `exec` running its foreground commands in the editor's terminals. */
export function throughEditorTerminals(
  terminals: EditorTerminals,
  options: { shell?: string; env?: NodeJS.ProcessEnv } = {},
): (tool: AnyTool) => AnyTool {
  return (tool) => {
    if (tool.name !== 'exec') return tool;
    const here = tool.execute.bind(tool) as unknown as (args: ExecArgs, ctx: ToolContext) => Promise<ExecRun>;
    return {
      ...tool,
      execute: (args, ctx) => {
        const exec = args as ExecArgs;
        const sandboxed = ctx.sandbox != null && exec.outside_sandbox !== true;
        if (exec.background === true || exec.tty === true || sandboxed) return here(exec, ctx);
        return runInEditor(terminals, exec, ctx, options);
      },
    } as AnyTool;
  };
}

async function runInEditor(
  terminals: EditorTerminals,
  args: ExecArgs,
  ctx: ToolContext,
  options: { shell?: string; env?: NodeJS.ProcessEnv },
): Promise<ExecRun> {
  const started = Date.now();
  const capture = captureOutput(ctx);
  const shell = options.shell ?? process.env['SHELL'] ?? '/bin/sh';
  const env = options.env ?? process.env;
  // The editor's terminal starts from the editor's environment: the secrets a command here would
  // not get (the model providers' keys) are unset by name before the shell starts.
  const kept = commandEnvironment(env, DEFAULT_COMMAND_ENV_POLICY);
  const dropped = Object.keys(env).filter((name) => !(name in kept));
  const line =
    dropped.length === 0
      ? { command: shell, args: ['-c', args.command] }
      : { command: 'env', args: [...dropped.flatMap((name) => ['-u', name]), shell, '-c', args.command] };
  const end = (fields: Omit<CommandEnd, 'durationMs'>): CommandEnd => ({
    ...fields,
    durationMs: Math.max(0, Date.now() - started),
  });
  if (ctx.signal.aborted) {
    return execRunOf(args, end({ status: 'cancelled', exitCode: null, signal: null }), await capture.finish());
  }

  let terminal: EditorTerminal;
  try {
    terminal = await terminals.create({
      ...line,
      cwd: ctx.resolvedPath(args.cwd ?? '.'),
      outputByteLimit: TERMINAL_OUTPUT_LIMIT,
      callId: ctx.callId,
    });
  } catch (error) {
    const failed = end({
      status: 'failed_to_start',
      exitCode: null,
      signal: null,
      error: `The editor could not open a terminal for it: ${errorMessage(error)}`,
    });
    return execRunOf(args, failed, await capture.finish());
  }

  try {
    // One wait for the exit: a kill at the timeout or a Stop ends it too.
    const exited = terminal.waitForExit();
    const stopped = await untilExitOrStop(terminal, exited, args, ctx.signal);
    const exit = await exited;
    const kept = await terminal.output();
    if (kept.truncated)
      capture.append(
        Buffer.from(
          `[The editor's terminal kept only the last ${formatBytes(TERMINAL_OUTPUT_LIMIT)} of the output.]\n`,
        ),
      );
    capture.append(Buffer.from(kept.output));
    const status = stopped ?? (exit.signal ? 'signalled' : 'exited');
    return execRunOf(args, end({ status, exitCode: exit.exitCode, signal: exit.signal }), await capture.finish());
  } catch (error) {
    // The editor went away or refused mid-command: what is known is kept, and said.
    const lost = end({
      status: 'connection_lost',
      exitCode: null,
      signal: null,
      error: `the editor's terminal stopped answering: ${errorMessage(error)}`,
    });
    return execRunOf(args, lost, await capture.finish());
  } finally {
    await terminal.release().catch(() => undefined);
  }
}

/**
 * Waits for the command; at its timeout or a Stop, kills it and says which. A command run here moves
 * to the session's processes at its timeout; one in the editor's terminal cannot, so it is killed.
 */
async function untilExitOrStop(
  terminal: EditorTerminal,
  exited: Promise<EditorTerminalExit>,
  args: ExecArgs,
  signal: AbortSignal,
): Promise<'timed_out' | 'cancelled' | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'timed_out' | 'cancelled'>((resolve) => {
    timer = setTimeout(() => resolve('timed_out'), (args.timeout_s ?? EXEC_DEFAULT_TIMEOUT_S) * 1000);
    onAbort = () => resolve('cancelled');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const first = await Promise.race([exited.then(() => null), stop]);
    if (first !== null) await terminal.kill();
    return first;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
