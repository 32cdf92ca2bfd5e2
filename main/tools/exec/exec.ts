import {
  captureOutput,
  type OutputCapture,
  execEcho,
  execIsError,
  execRunOf,
  execRunSchema,
  renderExec,
  type ExecRun,
} from './exec-output.ts';
import { commandEnvironment, DEFAULT_COMMAND_ENV_POLICY, type CommandEnvPolicy } from './command-env.ts';
import type { SpillLimits } from '../policies.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';
import { execEchoSchema } from '../../../protocol/echo.ts';
import { commandSubtitle } from '../describe.ts';
import { declareEcho, defineTool, type AnyTool } from '../tool.ts';
import { sandboxForCommand, type SandboxLaunch } from '../sandbox/sandbox-launch.ts';
import { takeKeptPreview } from '../sandbox/kept-previews.ts';
import { describeSandbox } from '../../../protocol/sandbox.ts';
import { errorMessage } from '../../../protocol/errors.ts';
import { runInGroup, type GroupHandOff } from './run-in-group.ts';
import { moveToTable } from '../processes/foreground-move.ts';
import type { CommandRequest } from './command-spawn.ts';
import type { ProcessTable } from '../processes/process-table.ts';
import { SETTLE_MS, startInBackground } from '../processes/background-start.ts';
import { ToolError } from '../tool.ts';
import { EXEC_DEFAULT_TIMEOUT_S, execArgsSchema, type ExecArgs } from '../../../protocol/tool-args.ts';

// `exec`: one command through the user's shell, in the workspace, in a process group of its own and
// with its processes marked, so a timeout or a cancel stops everything it started, daemons included
// (SIGTERM, SIGKILL after a grace; run-in-group.ts). Output streams to the card as it arrives; the
// model gets the status line, what the command left running, and the tail.

import { KILL_GRACE_MS } from './call-processes.ts';

export { KILL_GRACE_MS };

export interface ExecToolOptions {
  /** The shell that runs the command; default $SHELL, else /bin/sh. */
  shell?: string;
  /** The environment commands start from, before the policy drops secrets. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Which variables are dropped: read at every call, so a change in settings applies at once. */
  envPolicy?: () => Promise<CommandEnvPolicy> | CommandEnvPolicy;
  clock?: Clock;
  killGraceMs?: number;
  /** How long output may keep coming after the shell exited (run-in-group.ts). */
  outputGraceMs?: number;
  defaultTimeoutS?: number;
  limits?: SpillLimits;
  /** The session's background processes: where `background` and `tty` commands run. */
  processes?: ProcessTable;
  /** How long a background command is watched before the call returns. */
  settleMs?: number;
}

export function execTool(options: ExecToolOptions = {}): AnyTool {
  return defineTool<ExecArgs, ExecRun>({
    name: 'exec',
    model: {
      description:
        'Run a shell command in the workspace and return its exit code and output (stdout and stderr interleaved). The command gets no input: use non-interactive flags. ' +
        `Long output is cut to its tail, with the path of a file holding all of it. Stopped after timeout_s (default ${EXEC_DEFAULT_TIMEOUT_S} s). ` +
        'A command that keeps running (a dev server, a watcher) needs background: true; one that needs a terminal or input (a REPL, a prompt) needs tty: true. ' +
        'Either returns once it has started, with a process id for process_output, process_input and process_stop; it runs until stopped or until the session ends.',
      schema: execArgsSchema,
      resultSchema: execRunSchema,
      render: (result) => renderExec(result),
      isError: (result) => execIsError(result),
    },
    gate: {
      kind: 'exec',
      paths: (args) => [{ path: args.cwd ?? '.', access: 'write' }],
      ruleCommand: (args) => ({ prefix: '', line: args.command }),
      leavesSandbox: (args) => args.outside_sandbox === true,
      previewable: (args) =>
        args.background || args.tty
          ? {
              unavailable: `No preview: a command that keeps running ${args.tty ? 'in a terminal' : 'in the background'} goes on changing things after it starts, which a run over a copy cannot show.`,
            }
          : { command: args.command, cwd: args.cwd ?? '.' },
    },
    card: {
      describe: (args) => ({
        title: `${args.tty ? 'Run in a terminal' : args.background ? 'Run in the background' : 'Run a command'}${args.cwd ? ` in ${args.cwd}` : ''}`,
        subtitle: commandSubtitle(args.command),
        detail: args.command,
      }),
      echo: declareEcho(execEchoSchema, (result: ExecRun) => execEcho(result)),
    },
    async execute(args, ctx) {
      // The person kept its preview's result: the changes are in the workspace, and it does not run again.
      const previewed = takeKeptPreview(ctx.callId);
      if (previewed) return previewed;
      const clock = options.clock ?? systemClock;
      const envPolicy = (await options.envPolicy?.()) ?? DEFAULT_COMMAND_ENV_POLICY;
      const cwd = ctx.resolvedPath(args.cwd ?? '.');
      const capture = captureOutput(ctx, { ...(options.limits ? { limits: options.limits } : {}), clock });
      // In the sandbox mode a command runs in the sandbox unless the person let it out.
      const rules = args.outside_sandbox ? null : (ctx.sandbox ?? null);
      let sandbox: SandboxLaunch | null = null;
      try {
        if (rules)
          sandbox = await sandboxForCommand(
            rules,
            { workspace: ctx.workspace, cwd, appFolders: [ctx.sessionDir] },
            // A terminal's shell keeps the session its terminal made (job control).
            args.tty ? { terminal: true } : {},
          );
      } catch (error) {
        // Where no sandbox starts, nothing runs: never unsandboxed without the person's say.
        const failed = { status: 'failed_to_start', exitCode: null, signal: null, durationMs: 0 } as const;
        return execRunOf({ command: args.command }, { ...failed, error: errorMessage(error) }, await capture.finish());
      }
      if (args.background || args.tty) {
        // The sandbox lives as long as the process: its end lets go of it.
        const release = async (): Promise<void> => void (await sandbox?.close());
        if (!options.processes) {
          await release();
          throw new ToolError('Commands cannot run in the background here: run it without background or tty.');
        }
        const request: CommandRequest = {
          shell: options.shell ?? process.env['SHELL'] ?? '/bin/sh',
          command: args.command,
          cwd,
          env: commandEnvironment(options.env ?? process.env, envPolicy),
          ...(sandbox ? { wrapper: sandbox } : {}),
        };
        const settleMs = options.settleMs ?? SETTLE_MS;
        const tty = args.tty === true;
        const started = await startInBackground(ctx, {
          table: options.processes,
          request,
          tty,
          settleMs,
          clock,
          release,
        });
        return rules && sandbox ? { ...started, sandbox: describeSandbox(rules) } : started;
      }
      let moved = false;
      try {
        const handOff = options.processes
          ? moveToTable(options.processes, { ...ctx, command: args.command, capture }, () => {
              // The sandbox lives as long as the process that moved: its end lets go of it.
              moved = true;
              return async () => void (await sandbox?.close());
            })
          : undefined;
        const run = await runCommand(args, ctx.signal, cwd, envPolicy, capture, sandbox, handOff);
        const refusal = sandbox && execIsError(run) ? sandbox.refusal(run.output) : null;
        return rules && sandbox
          ? { ...run, sandbox: describeSandbox(rules), ...(refusal ? { sandbox_refusal: refusal } : {}) }
          : run;
      } finally {
        if (!moved) await sandbox?.close();
      }
    },
  });

  async function runCommand(
    args: ExecArgs,
    signal: AbortSignal,
    cwd: string,
    envPolicy: CommandEnvPolicy,
    capture: OutputCapture,
    sandbox: SandboxLaunch | null,
    handOff: GroupHandOff | undefined,
  ): Promise<ExecRun> {
    const clock = options.clock ?? systemClock;
    const ended = await runInGroup({
      shell: options.shell ?? process.env['SHELL'] ?? '/bin/sh',
      command: args.command,
      cwd,
      env: commandEnvironment(options.env ?? process.env, envPolicy),
      timeoutMs: (args.timeout_s ?? options.defaultTimeoutS ?? EXEC_DEFAULT_TIMEOUT_S) * 1000,
      killGraceMs: options.killGraceMs ?? KILL_GRACE_MS,
      ...(options.outputGraceMs !== undefined ? { outputGraceMs: options.outputGraceMs } : {}),
      signal,
      clock,
      ...(sandbox ? { wrapper: sandbox } : {}),
      ...(handOff ? { handOff } : {}),
      append: (chunk) => capture.append(chunk),
      drained: () => capture.drained(),
    });
    return execRunOf({ command: args.command }, ended, await capture.finish(), options.limits);
  }
}
