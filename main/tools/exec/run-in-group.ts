import { CallProcesses, type Ending } from './call-processes.ts';
import { commandLaunch, spawnInGroup, type PipedChild } from './command-spawn.ts';
import type { CommandEnd } from './exec-output.ts';
import type { Clock } from '../progress-reporter.ts';
import type { SpawnWrapper } from '../sandbox/spawn-wrapper.ts';

// One command through the shell, as the leader of a new process group, its processes marked so
// that everything it started can be found and ended (call-processes.ts). The run ends when the
// shell exits: a daemon that keeps the output pipe open gets `outputGraceMs` to finish writing,
// then it and everything else the command left running is stopped, and the result says so.

/** How long output may keep coming after the shell exited before what holds the pipe is stopped. */
export const OUTPUT_GRACE_MS = 500;

export interface GroupRun {
  shell: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  killGraceMs: number;
  outputGraceMs?: number;
  signal: AbortSignal;
  clock: Clock;
  /** Runs the shell inside something (the sandbox). */
  wrapper?: SpawnWrapper;
  /** What the command reads on its standard input (a hook's event); none: no input at all. */
  stdin?: string;
  /** Where the command may move instead of being stopped at its timeout, or when asked (the card's button). */
  handOff?: GroupHandOff;
  /** False asks the run to pause reading until `drained()` resolves. */
  append(chunk: Buffer, stream: 'stdout' | 'stderr'): boolean;
  drained(): Promise<void>;
}

/**
 * How a running command moves out of the run into something that keeps it running (the session's
 * process table): at its timeout instead of being stopped, and whenever `listen`'s move is called.
 */
export interface GroupHandOff {
  /** Lets the move be asked for from outside; returns the way to stop listening. */
  listen(move: () => Promise<MovedCommand>): () => void;
  /**
   * Takes the command over, or throws why it cannot. Whatever it awaits comes first: `detach` then
   * hands over the pipes and processes at once (false: the command ended meanwhile, and stays here).
   */
  take(running: RunningCommand): Promise<MovedCommand>;
}

export interface RunningCommand {
  child: PipedChild;
  processes: CallProcesses;
  /** When it started, by the run's clock. */
  startedAt: number;
  detach(): boolean;
}

/** Where a command moved: its process id there. */
export interface MovedCommand {
  id: string;
  pid: number | null;
}

export interface GroupEnd extends CommandEnd {
  /** Process group id (the shell's pid), when it started. */
  pgid?: number;
}

interface ShellExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs `shell -c command` as the leader of a new process group and waits for it and what it left behind. */
export function runInGroup(run: GroupRun): Promise<GroupEnd> {
  const started = run.clock.now();
  const processes = new CallProcesses();
  const outputGraceMs = run.outputGraceMs ?? OUTPUT_GRACE_MS;
  return new Promise((resolve) => {
    const request = { shell: run.shell, command: run.command, cwd: run.cwd, env: processes.environment(run.env) };
    // A sandbox made ahead for this one takes the command at once; otherwise it starts now.
    const child =
      run.wrapper?.adopt?.(request) ??
      spawnInGroup(commandLaunch({ ...request, ...(run.wrapper ? { wrapper: run.wrapper } : {}) }));
    processes.started(child.pid);
    run.wrapper?.started(child.pid);
    // Its input, then the end of it (a command that reads none finds it ended at once). A command
    // that never reads it closes the pipe early: not a failure of the run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.stdin ?? '');
    let stopReason: 'timed_out' | 'cancelled' | null = null;
    const shell: { exit: ShellExit | null } = { exit: null };
    // Read through a call: the exit arrives while stop() awaits, after its check narrowed it to null.
    const shellExit = (): ShellExit | null => shell.exit;
    let outputClosed = false;
    let paused = false;
    let lastData = run.clock.now();
    let settled = false;
    let wrapping = false;
    const timers: unknown[] = [];
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const closed = new Promise<void>((done) => child.once('close', () => done()));

    const onData = (chunk: Buffer, stream: 'stdout' | 'stderr'): void => {
      lastData = run.clock.now();
      if (run.append(chunk, stream)) return;
      // The spill file is behind: stop reading so the pipe, not our memory, holds the backlog.
      paused = true;
      child.stdout.pause();
      child.stderr.pause();
      void run.drained().then(() => {
        paused = false;
        lastData = run.clock.now();
        child.stdout.resume();
        child.stderr.resume();
      });
    };
    const onStdout = (chunk: Buffer): void => onData(chunk, 'stdout');
    const onStderr = (chunk: Buffer): void => onData(chunk, 'stderr');
    child.stdout.on('data', onStdout);
    child.stderr.on('data', onStderr);

    const later = (ms: number, callback: () => void): unknown => {
      const timer = run.clock.setTimeout(callback, ms);
      timers.push(timer);
      return timer;
    };
    /** Resolves once the output pipes closed; a holder nothing could end is cut off once it goes quiet. */
    const outputEnd = (): Promise<void> =>
      new Promise((done) => {
        void closed.then(done);
        const check = (): void => {
          if (outputClosed) return;
          const quiet = run.clock.now() - lastData;
          if (paused || quiet < run.killGraceMs) return void later(run.killGraceMs - (paused ? 0 : quiet), check);
          child.stdout.destroy();
          child.stderr.destroy();
          done();
        };
        later(run.killGraceMs, check);
      });

    const finish = (end: Omit<GroupEnd, 'durationMs'>, ending?: Ending): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) run.clock.clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      stopListening();
      const left = ending && ending.endedOutsideGroup + ending.survivors.length;
      resolve({
        ...end,
        ...(child.pid !== undefined ? { pgid: child.pid } : {}),
        ...(ending && left
          ? { leftBehind: { stopped: ending.endedOutsideGroup, still_running: ending.survivors.length } }
          : {}),
        durationMs: Math.max(0, Math.round(run.clock.now() - started)),
      });
    };

    const stop = async (reason: 'timed_out' | 'cancelled'): Promise<void> => {
      if (stopReason || shell.exit || settled) return;
      stopReason = reason;
      const ending = await processes.end(run.killGraceMs, run.clock);
      await exited;
      await outputEnd();
      const ended = shellExit();
      finish({ status: reason, exitCode: ended?.code ?? null, signal: ended?.signal ?? null }, ending);
    };
    const onAbort = (): void => void stop('cancelled');

    // Moving out: the pipes and processes go to the new owner in one turn of the event loop, so no
    // output is lost between the two; the run ends saying where the command went.
    let moving = false;
    const moveOut = async (why: 'timed_out' | 'person'): Promise<MovedCommand> => {
      if (!run.handOff) throw new Error('This command cannot move to the background.');
      if (moving || stopReason || shell.exit || settled) throw new Error('The command is ending: it cannot move now.');
      moving = true;
      try {
        const detach = (): boolean => {
          if (stopReason || shell.exit || settled) return false;
          child.stdout.off('data', onStdout);
          child.stderr.off('data', onStderr);
          child.off('exit', onExit);
          child.off('close', onClose);
          child.off('error', onError);
          return true;
        };
        const moved = await run.handOff.take({ child, processes, startedAt: started, detach });
        finish({ status: 'running', exitCode: null, signal: null, moved: { ...moved, why } });
        return moved;
      } finally {
        moving = false;
      }
    };
    const stopListening = run.handOff?.listen(() => moveOut('person')) ?? ((): void => undefined);

    // The shell exited: its own exit is the result. Whatever it left running is ended, counting
    // every process found (in its group or not), since none of them is the command any more.
    const wrapUp = async (): Promise<void> => {
      if (wrapping || stopReason || settled || !shell.exit) return;
      wrapping = true;
      // A sandbox that exited of itself took every process of its namespace with it: no /proc scan.
      const whole = run.wrapper?.endsEverything === true && shell.exit.code !== null;
      const ending = whole ? processes.ended() : await processes.end(run.killGraceMs, run.clock);
      await outputEnd();
      const { code, signal } = shell.exit;
      finish(
        { status: signal ? 'signalled' : 'exited', exitCode: code, signal },
        { ...ending, endedOutsideGroup: ending.ended },
      );
    };

    const onError = (error: Error): void => {
      // The shell or the folder is missing: nothing ran.
      finish({
        status: 'failed_to_start',
        exitCode: null,
        signal: null,
        error: `${error.message} (shell ${run.shell}, folder ${run.cwd})`,
      });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      shell.exit = { code, signal };
      if (stopReason) return;
      for (const timer of timers) run.clock.clearTimeout(timer);
      later(outputGraceMs, () => void wrapUp());
    };
    const onClose = (): void => {
      outputClosed = true;
      void wrapUp();
    };
    child.once('error', onError);
    child.once('exit', onExit);
    child.once('close', onClose);

    // At its timeout a command moves where it can keep running, and is stopped where it cannot.
    later(run.timeoutMs, () => {
      const moved = run.handOff ? moveOut('timed_out').then(() => true) : Promise.resolve(false);
      void moved.catch(() => false).then((done) => (done ? undefined : stop('timed_out')));
    });
    if (run.signal.aborted) void stop('cancelled');
    else run.signal.addEventListener('abort', onAbort, { once: true });
  });
}
