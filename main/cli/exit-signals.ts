import { constants } from 'node:os';
import { endEveryCallNow } from '../agent/started-processes.ts';

// How a command ends when it is told to: Ctrl-C (SIGINT), SIGTERM (a process manager, `timeout`,
// `kill`) and SIGHUP (its terminal closed) all stop what it started, as Ctrl-C always did. Once
// the command has said how (`stopWith`: the turn or the call is stopped, and ends recorded so), the
// first signal asks for that; before then, or at a second signal, every command and MCP server it
// started is killed at once and it exits. Its exit code is then 128 + the signal's number.

export const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type ExitSignal = (typeof EXIT_SIGNALS)[number];

export interface ExitSignalsOptions {
  /** Where the signals come from and where output goes (default: this process). */
  target?: Pick<NodeJS.Process, 'on' | 'off' | 'stdout' | 'stderr'>;
  /** Ends the process at once (default process.exit, after every call's processes were killed). */
  exitNow?: (code: number) => void;
}

export class ExitSignals {
  /** The first signal received. */
  received: ExitSignal | null = null;
  private stop: ((signal: ExitSignal) => void) | null = null;
  private readonly target: NonNullable<ExitSignalsOptions['target']>;
  private readonly exitNow: (code: number) => void;

  constructor(options: ExitSignalsOptions = {}) {
    this.target = options.target ?? process;
    this.exitNow =
      options.exitNow ??
      ((code) => {
        endEveryCallNow();
        process.exit(code);
      });
    for (const signal of EXIT_SIGNALS) this.target.on(signal, this.onSignal);
  }

  /** From now on the first signal calls `stop` instead of ending the process at once. */
  stopWith(stop: (signal: ExitSignal) => void): void {
    this.stop = stop;
  }

  /** 128 + the number of the first signal received, as a shell reports a command a signal ended. */
  get exitCode(): number | null {
    return this.received === null ? null : 128 + constants.signals[this.received];
  }

  dispose(): void {
    for (const signal of EXIT_SIGNALS) this.target.off(signal, this.onSignal);
  }

  private readonly onSignal = (signal: ExitSignal): void => {
    // A closed terminal fails every later write: the command still ends the way it should.
    if (signal === 'SIGHUP') for (const stream of [this.target.stdout, this.target.stderr]) stream.on('error', ignore);
    const first = this.received === null;
    this.received ??= signal;
    if (first && this.stop) this.stop(signal);
    else this.exitNow(128 + constants.signals[signal]);
  };
}

/** What the session log says of a turn a signal stopped; undefined for Ctrl-C, which is the person's Stop. */
export function stopReason(signal: ExitSignal, command: string): string | undefined {
  if (signal === 'SIGINT') return undefined;
  if (signal === 'SIGHUP') return `Stopped: the terminal of ${command} closed (SIGHUP).`;
  return `Stopped: ${command} was sent ${signal}.`;
}

function ignore(): void {}
