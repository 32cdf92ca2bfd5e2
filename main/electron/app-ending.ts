import { constants } from 'node:os';
import type { App } from 'electron';
import { endEveryCallNow } from '../agent/started-processes.ts';

// Every way the desktop app ends stops what it started, as closing its window does: `will-quit` is
// held until the panel service has stopped the running turn (recorded as stopped, saying why) and
// closed its commands and MCP servers. The window closing and Quit reach it through app.quit(); so
// do SIGINT, SIGTERM and SIGHUP (a process manager, `kill`, a closed terminal), the system shutting
// down (powerMonitor 'shutdown', Linux and macOS: the shutdown waits while the app quits) and the
// Windows session ending (the window's 'session-end': logging off, shutting down, which the app
// cannot delay). What is still running at the deadline, or at a second signal, is killed at once.

/** The longest a quit waits for what the app started to stop before it kills the rest. */
export const QUIT_DEADLINE_MS = 8000;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface AppEndingOptions {
  app: Pick<App, 'quit' | 'exit'>;
  /** Stops the running turn, saying `reason` (undefined: the person quit), and what the app started; null: nothing runs. */
  close(reason: string | undefined): Promise<void> | null;
  timers?: Timers;
  deadlineMs?: number;
}

interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface PreventableEvent {
  preventDefault(): void;
}

export class AppEnding {
  private readonly options: AppEndingOptions;
  private reason: string | undefined;
  private closing: Promise<void> | null = null;
  private closed = false;

  constructor(options: AppEndingOptions) {
    this.options = options;
  }

  /** Quits the app; the running turn's log says `reason` (the first one given) when it is not the person's Quit. */
  quit(reason?: string): void {
    this.reason ??= reason;
    this.ending = true;
    this.options.app.quit();
  }

  /** True once a signal, the system or the Windows session is ending the app: no question may hold it. */
  get endingAnyway(): boolean {
    return this.ending;
  }

  private ending = false;

  /** For `will-quit`: the quit waits until the service has closed, then goes on. */
  willQuit(event: PreventableEvent): void {
    if (this.closed) return;
    const closing = this.closing ?? this.options.close(this.reason);
    if (!closing) {
      this.closed = true;
      return;
    }
    event.preventDefault();
    if (this.closing) return;
    this.closing = closing;
    const timers = this.options.timers ?? realTimers;
    const deadline = timers.setTimeout(() => this.endNow(1), this.options.deadlineMs ?? QUIT_DEADLINE_MS);
    void closing
      .catch(() => undefined)
      .finally(() => {
        timers.clearTimeout(deadline);
        this.closed = true;
        this.options.app.quit();
      });
  }

  /** A signal quits as the window's close does; a second one, while the app is closing, ends it at once. */
  listenToSignals(target: Pick<NodeJS.Process, 'on'>): void {
    for (const signal of SIGNALS) {
      target.on(signal, () => {
        if (this.closing) this.endNow(128 + constants.signals[signal]);
        else this.quit(signal === 'SIGINT' ? undefined : `Stopped: ÆtherCodex was sent ${signal}.`);
      });
    }
  }

  /** The system shutting down or rebooting (Linux, macOS). */
  watchPower(powerMonitor: { on(event: 'shutdown', listener: (event?: PreventableEvent) => void): unknown }): void {
    powerMonitor.on('shutdown', (event) => {
      // Asks the system to wait (on Linux, logind's delay lock) until the app has quit.
      event?.preventDefault();
      this.quit('Stopped: the system is shutting down.');
    });
  }

  /** The Windows session ending: logging off, shutting down or restarting. */
  watchWindow(window: { on(event: 'session-end', listener: () => void): unknown }): void {
    window.on('session-end', () => this.quit('Stopped: the Windows session is ending.'));
  }

  /** Kills every command and MCP server the app started and exits, without waiting. */
  private endNow(code: number): void {
    endEveryCallNow();
    this.options.app.exit(code);
  }
}
