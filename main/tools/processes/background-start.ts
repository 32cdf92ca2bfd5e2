import type { ExecRun } from '../../../protocol/tools.ts';
import type { CommandRequest } from '../exec/command-spawn.ts';
import type { Clock } from '../progress-reporter.ts';
import type { ToolContext } from '../tool.ts';
import type { BackgroundProcess } from './background-process.ts';
import type { ProcessTable } from './process-table.ts';

// exec {background: true} or {tty: true}: the command starts in the session's process table and
// the call returns after a short settle time, so a command that fails at once (a typo, a port in
// use) is reported as the failure it is, with its output, and one that keeps running is reported
// with its id, its pid and its first output.

/** How long a started command is watched before the call returns. */
export const SETTLE_MS = 1000;
/** The most of its first output the call returns. */
const FIRST_OUTPUT_BYTES = 4 * 1024;

export interface BackgroundStartOptions {
  table: ProcessTable;
  request: CommandRequest;
  tty: boolean;
  settleMs: number;
  clock: Clock;
  /** Lets go of what the process needed while it ran (its sandbox), once it has ended or did not start. */
  release?: () => Promise<void>;
}

export async function startInBackground(
  ctx: Pick<ToolContext, 'callId' | 'sessionDir' | 'signal'>,
  options: BackgroundStartOptions,
): Promise<ExecRun> {
  let process: BackgroundProcess;
  try {
    process = await options.table.start({
      callId: ctx.callId,
      sessionDir: ctx.sessionDir,
      request: options.request,
      tty: options.tty,
    });
  } catch (error) {
    await options.release?.();
    throw error;
  }
  const release = options.release;
  if (release) process.onEnded(() => void release().catch(() => undefined));
  let timer: unknown;
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (ctx.signal.aborted) resolve('cancelled');
    ctx.signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
  const settled = await Promise.race([
    process.ended.then(() => 'ended' as const),
    new Promise<'settled'>((resolve) => (timer = options.clock.setTimeout(() => resolve('settled'), options.settleMs))),
    cancelled,
  ]);
  options.clock.clearTimeout(timer);
  // Stopped before it settled (Stop on the card, the turn stopped): the person does not want it running.
  if (settled === 'cancelled') await process.stop('person');
  await process.screen?.settled();
  return startResult(process, settled === 'cancelled');
}

function startResult(process: BackgroundProcess, cancelled: boolean): ExecRun {
  const output = process.screen ? process.screen.text() : process.output.read(0, FIRST_OUTPUT_BYTES).text;
  const left = process.leftBehind;
  const leftCount = left ? left.endedOutsideGroup + left.survivors.length : 0;
  const status: ExecRun['status'] = cancelled
    ? 'cancelled'
    : process.running
      ? 'running'
      : process.state === 'failed_to_start'
        ? 'failed_to_start'
        : process.signal
          ? 'signalled'
          : 'exited';
  return {
    command: process.command,
    status,
    exit_code: process.exitCode,
    signal: process.signal,
    duration_ms: process.uptimeMs(),
    output,
    output_bytes: process.output.bytes,
    output_lines: process.output.lines,
    ...(process.error ? { error: process.error } : {}),
    ...(left && leftCount > 0
      ? { left_behind: { stopped: left.endedOutsideGroup, still_running: left.survivors.length } }
      : {}),
    process: { id: process.id, pid: process.pid ?? null, tty: process.tty },
  };
}
