import type { ClientChannel, PseudoTtyOptions } from 'ssh2';
import {
  captureOutput,
  execEcho,
  execIsError,
  execRunOf,
  execRunSchema,
  renderExec,
  type CommandEnd,
  type ExecRun,
  type OutputCapture,
} from '../exec/exec-output.ts';
import { KILL_GRACE_MS } from '../exec/exec.ts';
import type { SpillLimits } from '../policies.ts';
import { systemClock, type Clock } from '../progress-reporter.ts';
import { SshPool, type ChannelLease, type PoolOptions } from './ssh-pool.ts';
import { defaultSshPaths, resolveTarget, type SshPaths } from './ssh-target.ts';
import { GroupMarker, killRemoteGroup, newNonce, wrapCommand, type RemoteStop } from './remote-group.ts';
import { execEchoSchema } from '../../../protocol/echo.ts';
import { commandSubtitle } from '../describe.ts';
import { declareEcho, defineTool, ToolError, type AnyTool } from '../tool.ts';
import { EXEC_DEFAULT_TIMEOUT_S, sshExecArgsSchema, type SshExecArgs } from '../../../protocol/tool-args.ts';

// `ssh_exec`: one command on a remote host over a pooled SSH connection, streamed to the card like
// `exec`. The command runs under a wrapper that reports its process group (remote-group.ts) and
// gets a pseudo-terminal so that closing its channel hangs it up: a cancel or a timeout kills the
// group over a second channel (TERM, then KILL), which stops it even where the server ignores
// signal requests (OpenSSH does for root logins) and the command ignores the hang-up, and says
// when it could not be confirmed gone. A link that drops mid-command ends the call as "connection
// lost", never as a success.

export interface SshExecOptions {
  paths?: Partial<SshPaths>;
  pool?: Partial<PoolOptions>;
  clock?: Clock;
  killGraceMs?: number;
  defaultTimeoutS?: number;
  limits?: SpillLimits;
}

/** A wide, quiet terminal: no echo, no CR before LF, no colours or pagers where programs honour TERM. */
export const PTY: PseudoTtyOptions = {
  term: 'dumb',
  cols: 1000,
  rows: 50,
  width: 0,
  height: 0,
  modes: { ECHO: 0, ONLCR: 0 },
};
/** Hints for servers that accept them (AcceptEnv); ignored silently elsewhere. */
export const ENV = { PAGER: 'cat', GIT_PAGER: 'cat', SYSTEMD_PAGER: '' };

export interface SshExecTool {
  tool: AnyTool;
  pool: SshPool;
}

export function sshExecTool(options: SshExecOptions = {}): AnyTool {
  return createSshExec(options).tool;
}

/** The tool and its connection pool (tests and the app close the pool when done). */
export function createSshExec(options: SshExecOptions = {}): SshExecTool {
  const paths: SshPaths = { ...defaultSshPaths(), ...options.paths };
  const pool = new SshPool(options.pool);
  const tool = defineTool<SshExecArgs, ExecRun>({
    name: 'ssh_exec',
    model: {
      description:
        'Run a shell command on a remote host over SSH (host: an alias from ~/.ssh/config or user@host:port) and return its exit code and output. ' +
        'Uses ssh-agent or key files, and the known host keys. The command gets a terminal but no input: use non-interactive flags (apt-get -y, git --no-pager). ' +
        `Long output is cut to its tail, with the path of a file holding all of it. Stopped after timeout_s (default ${EXEC_DEFAULT_TIMEOUT_S} s).`,
      schema: sshExecArgsSchema,
      resultSchema: execRunSchema,
      render: (result) => renderExec(result),
      isError: (result) => execIsError(result),
    },
    gate: {
      kind: 'ssh',
      ruleCommand: (args) => ({ prefix: `${args.host}:`, line: args.command }),
      previewable: (args) => ({
        unavailable: `No preview: the command runs on ${args.host}, and a preview only copies this workspace.`,
      }),
    },
    card: {
      describe: (args) => ({
        title: `Run a command on ${args.host}`,
        subtitle: commandSubtitle(args.command, args.host),
        detail: args.command,
      }),
      echo: declareEcho(execEchoSchema, (result: ExecRun) => execEcho(result)),
    },
    async execute(args, ctx) {
      const clock = options.clock ?? systemClock;
      const target = await resolveTarget(args.host, paths);
      const ask = (question: { title: string; detail: string }): Promise<boolean> =>
        ctx.requestApproval({ ...question, scope: 'ssh' });
      const lease = await pool.acquire(target, ask, ctx.signal);
      const capture = captureOutput(ctx, { ...(options.limits ? { limits: options.limits } : {}), clock });
      const started = clock.now();
      let ended: ChannelEnd;
      try {
        ended = await runOnChannel(lease, args.command, capture, {
          timeoutMs: (args.timeout_s ?? options.defaultTimeoutS ?? EXEC_DEFAULT_TIMEOUT_S) * 1000,
          killGraceMs: options.killGraceMs ?? KILL_GRACE_MS,
          signal: ctx.signal,
          clock,
          label: target.label,
        });
      } finally {
        lease.release();
      }
      const final = await capture.finish();
      const durationMs = Math.max(0, Math.round(clock.now() - started));
      return execRunOf({ command: args.command, host: target.label }, { ...ended, durationMs }, final, options.limits);
    },
  });
  return { tool, pool };
}

/** The channel knows how the command ended; the call measures how long it took. */
type ChannelEnd = Omit<CommandEnd, 'durationMs'>;

interface ChannelRun {
  timeoutMs: number;
  killGraceMs: number;
  signal: AbortSignal;
  clock: Clock;
  label: string;
}

function runOnChannel(
  lease: ChannelLease,
  command: string,
  capture: OutputCapture,
  run: ChannelRun,
): Promise<ChannelEnd> {
  return new Promise((resolve, reject) => {
    const nonce = newNonce();
    lease.client.exec(wrapCommand(command, nonce), { pty: PTY, env: ENV }, (error, channel) => {
      if (error) {
        const lost = lease.lostReason();
        reject(
          new ToolError(
            lost !== null
              ? `The connection to ${run.label} was lost while starting the command (${lost}); it may not have run. Try again.`
              : `${run.label} refused to start the command: ${error.message}. The server may limit sessions per connection (MaxSessions).`,
          ),
        );
        return;
      }
      watchChannel(channel, lease, new GroupMarker(nonce), capture, run, resolve);
    });
  });
}

function watchChannel(
  channel: ClientChannel,
  lease: ChannelLease,
  marker: GroupMarker,
  capture: OutputCapture,
  run: ChannelRun,
  resolve: (end: ChannelEnd) => void,
): void {
  let exitCode: number | null = null;
  let exitSignal: string | null = null;
  let exited = false;
  let closed = false;
  let stopReason: 'timed_out' | 'cancelled' | null = null;
  let remoteStop: RemoteStop | null = null;
  let settled = false;
  const timers: unknown[] = [];

  const onOutput = (chunk: Buffer): void => {
    if (chunk.length === 0 || capture.append(chunk)) return;
    // The spill file is behind: stop reading, so the SSH window, not our memory, holds the backlog.
    channel.pause();
    void capture.drained().then(() => channel.resume());
  };
  // The wrapper's first line (the remote process group) is the client's, not the command's output.
  channel.on('data', (chunk: Buffer) => onOutput(marker.take(chunk)));
  channel.stderr.on('data', onOutput);
  channel.on('exit', (code: number | null, signalName?: string) => {
    exited = true;
    exitCode = typeof code === 'number' ? code : null;
    exitSignal = signalName ? `SIG${signalName.replace(/^SIG/, '')}` : null;
  });

  const finish = (end: ChannelEnd): void => {
    if (settled) return;
    settled = true;
    for (const timer of timers) run.clock.clearTimeout(timer);
    run.signal.removeEventListener('abort', onAbort);
    stopWatchingLink();
    onOutput(marker.flush());
    resolve(end);
  };
  const finishStopped = (): void => {
    if (!stopReason) return;
    const unconfirmed = remoteStop?.confirmed
      ? null
      : (remoteStop?.reason ?? `the connection to ${run.label} was lost before the stop was confirmed`);
    finish({
      status: stopReason,
      exitCode,
      signal: exitSignal,
      ...(unconfirmed ? { stopUnconfirmed: unconfirmed } : {}),
    });
  };
  const after = (ms: number): Promise<void> => new Promise((done) => timers.push(run.clock.setTimeout(done, ms)));
  // The server may refuse the signal (OpenSSH does for root) and the command may ignore the hang-up,
  // so its process group is killed over a second channel, and the result says whether it is gone.
  const stop = async (reason: 'timed_out' | 'cancelled'): Promise<void> => {
    if (stopReason || settled) return;
    stopReason = reason;
    channel.signal('TERM');
    if (marker.pgid === null) await after(run.killGraceMs);
    const pgid = marker.pgid;
    remoteStop =
      pgid === null
        ? { confirmed: false, reason: `its process group on ${run.label} never became known` }
        : await killRemoteGroup(lease.client, pgid, run.killGraceMs, run.label);
    if (settled) return;
    channel.signal('KILL');
    // Closing the channel hangs up the terminal: the command's group gets SIGHUP.
    channel.close();
    if (closed) return finishStopped();
    // A server that never confirms the close must not hold the call open.
    timers.push(run.clock.setTimeout(finishStopped, run.killGraceMs));
  };
  const onAbort = (): void => void stop('cancelled');
  const stopWatchingLink = lease.onLost((reason) => {
    if (stopReason) return finishStopped();
    finish({ status: 'connection_lost', exitCode: null, signal: null, error: reason });
  });

  channel.on('close', () => {
    closed = true;
    const lost = lease.lostReason();
    if (stopReason) {
      // Finished once the kill channel has answered (or the link is gone and it never will).
      if (remoteStop || lost !== null) finishStopped();
      return;
    }
    if (!exited && lost !== null)
      return finish({ status: 'connection_lost', exitCode: null, signal: null, error: lost });
    if (!exited)
      return finish({
        status: 'exited',
        exitCode: null,
        signal: null,
        error: 'the server closed the channel without an exit status',
      });
    finish({ status: exitSignal ? 'signalled' : 'exited', exitCode, signal: exitSignal });
  });

  timers.push(run.clock.setTimeout(() => void stop('timed_out'), run.timeoutMs));
  if (run.signal.aborted) void stop('cancelled');
  else run.signal.addEventListener('abort', onAbort, { once: true });
}
