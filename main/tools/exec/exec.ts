import { spawn } from 'node:child_process';
import { z } from 'zod';
import {
  captureOutput,
  execEcho,
  execIsError,
  execRunOf,
  execRunSchema,
  renderExec,
  type CommandEnd,
  type ExecRun,
} from './exec-output.ts';
import { commandEnvironment, DEFAULT_COMMAND_ENV_POLICY, type CommandEnvPolicy } from './command-env.ts';
import type { SpillLimits } from '../policies.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';
import { execEchoSchema } from '../../../protocol/echo.ts';
import { commandSubtitle } from '../describe.ts';
import { declareEcho, defineTool, type AnyTool } from '../tool.ts';

// `exec`: one command through the user's shell, in the workspace, in a process group of its own so
// a timeout or a cancel stops everything it started (SIGTERM to the group, SIGKILL after a grace).
// Output streams to the card as it arrives; the model gets the status line and the tail.

export const DEFAULT_TIMEOUT_S = 120;
export const KILL_GRACE_MS = 2000;
const MAX_TIMEOUT_S = 24 * 60 * 60;

const schema = z.object({
  command: z.string().min(1).describe("The command line, run by the user's shell (`$SHELL -c`)."),
  cwd: z.string().min(1).optional().describe('Folder to run in, relative to the workspace root (default: the root).'),
  timeout_s: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before the command is stopped (default ${DEFAULT_TIMEOUT_S}).`),
});

export type ExecArgs = z.infer<typeof schema>;

export interface ExecToolOptions {
  /** The shell that runs the command; default $SHELL, else /bin/sh. */
  shell?: string;
  /** The environment commands start from, before the policy drops secrets. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Which variables are dropped: read at every call, so a change in settings applies at once. */
  envPolicy?: () => Promise<CommandEnvPolicy> | CommandEnvPolicy;
  clock?: Clock;
  killGraceMs?: number;
  defaultTimeoutS?: number;
  limits?: SpillLimits;
}

export function execTool(options: ExecToolOptions = {}): AnyTool {
  return defineTool<ExecArgs, ExecRun>({
    name: 'exec',
    description:
      'Run a shell command in the workspace and return its exit code and output (stdout and stderr interleaved). The command gets no input: use non-interactive flags. ' +
      `Long output is cut to its tail, with the path of a file holding all of it. Stopped after timeout_s (default ${DEFAULT_TIMEOUT_S} s).`,
    kind: 'exec',
    schema,
    resultSchema: execRunSchema,
    paths: (args) => [{ path: args.cwd ?? '.', access: 'write' }],
    ruleCommand: (args) => ({ prefix: '', line: args.command }),
    describe: (args) => ({
      title: args.cwd ? `Run a command in ${args.cwd}` : 'Run a command',
      subtitle: commandSubtitle(args.command),
      detail: args.command,
    }),
    async execute(args, ctx) {
      const clock = options.clock ?? systemClock;
      const envPolicy = (await options.envPolicy?.()) ?? DEFAULT_COMMAND_ENV_POLICY;
      const capture = captureOutput(ctx, { ...(options.limits ? { limits: options.limits } : {}), clock });
      const ended = await runInGroup({
        shell: options.shell ?? process.env['SHELL'] ?? '/bin/sh',
        command: args.command,
        cwd: ctx.resolvedPath(args.cwd ?? '.'),
        env: commandEnvironment(options.env ?? process.env, envPolicy),
        timeoutMs: (args.timeout_s ?? options.defaultTimeoutS ?? DEFAULT_TIMEOUT_S) * 1000,
        killGraceMs: options.killGraceMs ?? KILL_GRACE_MS,
        signal: ctx.signal,
        clock,
        append: (chunk) => capture.append(chunk),
        drained: () => capture.drained(),
      });
      return execRunOf({ command: args.command }, ended, await capture.finish(), options.limits);
    },
    render: (result) => renderExec(result),
    isError: (result) => execIsError(result),
    echo: declareEcho(execEchoSchema, (result: ExecRun) => execEcho(result)),
  });
}

export interface GroupRun {
  shell: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  killGraceMs: number;
  signal: AbortSignal;
  clock: Clock;
  /** False asks the run to pause reading until `drained()` resolves. */
  append(chunk: Buffer): boolean;
  drained(): Promise<void>;
}

export interface GroupEnd extends CommandEnd {
  /** Process group id (the shell's pid), when it started. */
  pgid?: number;
}

/** Runs `shell -c command` as the leader of a new process group and waits for its output to end. */
export function runInGroup(run: GroupRun): Promise<GroupEnd> {
  const started = run.clock.now();
  return new Promise((resolve) => {
    const child = spawn(run.shell, ['-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    let stopReason: 'timed_out' | 'cancelled' | null = null;
    let settled = false;
    const timers: unknown[] = [];

    const onData = (chunk: Buffer): void => {
      if (run.append(chunk)) return;
      // The spill file is behind: stop reading so the pipe, not our memory, holds the backlog.
      child.stdout.pause();
      child.stderr.pause();
      void run.drained().then(() => {
        child.stdout.resume();
        child.stderr.resume();
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
      if (pgid === undefined) return false;
      try {
        process.kill(-pgid, signal);
        return true;
      } catch {
        return false; // ESRCH: nothing of the group is left.
      }
    };
    const later = (ms: number, callback: () => void): void => {
      timers.push(run.clock.setTimeout(callback, ms));
    };
    const stop = (reason: 'timed_out' | 'cancelled'): void => {
      if (stopReason || settled) return;
      stopReason = reason;
      signalGroup('SIGTERM');
      later(run.killGraceMs, () => {
        signalGroup('SIGKILL');
        // A process that left the group may still hold the pipes; stop waiting for them.
        later(run.killGraceMs, () => {
          child.stdout.destroy();
          child.stderr.destroy();
        });
      });
    };
    const onAbort = (): void => stop('cancelled');

    const finish = (end: Omit<GroupEnd, 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) run.clock.clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      resolve({ ...end, durationMs: Math.max(0, Math.round(run.clock.now() - started)) });
    };

    child.once('error', (error) => {
      // The shell or the folder is missing: nothing ran.
      finish({
        status: 'failed_to_start',
        exitCode: null,
        signal: null,
        error: `${error.message} (shell ${run.shell}, folder ${run.cwd})`,
      });
    });
    child.once('close', (code, signal) => {
      if (settled) return;
      const end = (): void => {
        const status = stopReason ?? (signal ? 'signalled' : 'exited');
        finish({ status, exitCode: code, signal, ...(pgid !== undefined ? { pgid } : {}) });
      };
      // After a stop, the result waits until the whole group is gone, so "stopped" means stopped.
      if (stopReason && signalGroup(0)) {
        timers.push(
          run.clock.setTimeout(() => {
            signalGroup('SIGKILL');
            end();
          }, run.killGraceMs),
        );
        return;
      }
      end();
    });

    later(run.timeoutMs, () => stop('timed_out'));
    if (run.signal.aborted) stop('cancelled');
    else run.signal.addEventListener('abort', onAbort, { once: true });
  });
}
