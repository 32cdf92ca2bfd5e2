import { errorMessage } from '../../../protocol/errors.ts';
import type { SandboxRules } from '../../../protocol/sandbox.ts';
import { sandboxForCommand, type SandboxLaunch } from '../sandbox/sandbox-launch.ts';
import { commandEnvironment, DEFAULT_COMMAND_ENV_POLICY, type CommandEnvPolicy } from '../exec/command-env.ts';
import { KILL_GRACE_MS } from '../exec/exec.ts';
import { runInGroup } from '../exec/run-in-group.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';
import type { HookCommand } from './hook-config.ts';

// One hook command, run as exec runs the model's commands (run-in-group.ts): the person's shell in
// the workspace, in a process group of its own with its processes marked, the same environment
// policy, in the sandbox when the session's mode runs commands in one, ended with everything it
// started at its timeout or on Stop. The event goes to its stdin
// as one JSON object; what it prints is kept up to a cap, so a hook that prints without end costs
// nothing but the time it is given.

/** What of a hook's stdout is read for its answer; a longer answer is cut and named so. */
export const HOOK_STDOUT_LIMIT = 1024 * 1024;
/** What of its stderr is kept (a reason, an error): the last bytes. */
export const HOOK_STDERR_LIMIT = 64 * 1024;

export interface HookRunOptions {
  workspace: string;
  signal: AbortSignal;
  /** Read at each run: the settings may change meanwhile. */
  envPolicy?: () => Promise<CommandEnvPolicy> | CommandEnvPolicy;
  env?: NodeJS.ProcessEnv;
  shell?: string;
  clock?: Clock;
  killGraceMs?: number;
  /** The sandbox the session's mode runs commands in: a hook runs in it too; null: none. */
  sandbox?: SandboxRules | null;
}

export interface HookRun {
  /** exited, timed_out, cancelled, signalled, failed_to_start. */
  status: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Bytes it printed past the caps. */
  cut: { stdout: number; stderr: number };
  durationMs: number;
  /** Why it could not start. */
  error?: string;
}

export async function runHookCommand(hook: HookCommand, input: unknown, options: HookRunOptions): Promise<HookRun> {
  const policy = (await options.envPolicy?.()) ?? DEFAULT_COMMAND_ENV_POLICY;
  const env = {
    ...commandEnvironment(options.env ?? process.env, policy),
    // Where hooks written for Claude Code look for the project.
    CLAUDE_PROJECT_DIR: options.workspace,
    AETHERCODEX_PROJECT_DIR: options.workspace,
  };
  const stdout = new HeadBuffer(HOOK_STDOUT_LIMIT);
  const stderr = new TailBuffer(HOOK_STDERR_LIMIT);
  let sandbox: SandboxLaunch | null = null;
  try {
    if (options.sandbox)
      sandbox = await sandboxForCommand(options.sandbox, { workspace: options.workspace, cwd: options.workspace });
  } catch (error) {
    // Where the mode's sandbox cannot start, a hook does not run outside it.
    const why = `the sandbox it would run in cannot start: ${errorMessage(error)}`;
    return {
      status: 'failed_to_start',
      exitCode: null,
      stdout: '',
      stderr: '',
      cut: { stdout: 0, stderr: 0 },
      durationMs: 0,
      error: why,
    };
  }
  const ended = await runInGroup({
    shell: options.shell ?? process.env['SHELL'] ?? '/bin/sh',
    command: hook.command,
    cwd: options.workspace,
    env,
    stdin: `${JSON.stringify(input)}\n`,
    timeoutMs: hook.timeoutS * 1000,
    killGraceMs: options.killGraceMs ?? KILL_GRACE_MS,
    signal: options.signal,
    clock: options.clock ?? systemClock,
    append: (chunk, stream) => {
      (stream === 'stdout' ? stdout : stderr).add(chunk);
      return true;
    },
    drained: () => Promise.resolve(),
    ...(sandbox ? { wrapper: sandbox } : {}),
  }).finally(() => sandbox?.close());
  return {
    status: ended.status,
    exitCode: ended.exitCode,
    stdout: stdout.text(),
    stderr: stderr.text(),
    cut: { stdout: stdout.dropped, stderr: stderr.dropped },
    durationMs: ended.durationMs,
    ...(ended.error ? { error: ended.error } : {}),
  };
}

/** The first `limit` bytes of a stream; the rest counted and dropped. */
class HeadBuffer {
  private readonly chunks: Buffer[] = [];
  private readonly limit: number;
  private size = 0;
  dropped = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(Buffer.from(kept));
    this.size += kept.length;
    this.dropped += chunk.length - kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** The last `limit` bytes of a stream. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private readonly limit: number;
  private size = 0;
  dropped = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: Buffer): void {
    this.chunks.push(Buffer.from(chunk));
    this.size += chunk.length;
    if (this.size > this.limit * 2) this.trim();
  }

  text(): string {
    this.trim();
    return Buffer.concat(this.chunks).toString('utf8');
  }

  private trim(): void {
    if (this.size <= this.limit) return;
    const all = Buffer.concat(this.chunks);
    this.dropped += all.length - this.limit;
    this.chunks = [all.subarray(all.length - this.limit)];
    this.size = this.limit;
  }
}
