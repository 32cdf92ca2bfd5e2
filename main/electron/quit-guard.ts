import type { ProcessInfo } from '../../protocol/processes.ts';
import type { Confirmation } from './confirm-dialog.ts';

// Quitting the desktop app stops the open session's background processes (a dev server the model
// started, a watcher). When the person quits — Quit, or closing the window — while any runs, the
// app asks first, naming them: Stop them and quit, or Cancel (nothing closes). A quit the person
// did not ask for (a signal, the system shutting down) never waits on a question. Plain Node: the
// Electron wiring in main.ts only hands the events and the dialog in.

export interface QuitGuardOptions {
  /** Whether the open session has a background process running now (read at the event, at once). */
  anyRunning(): boolean;
  /** The running ones, as the question names them. */
  running(): Promise<ProcessInfo[]>;
  /** Shows the question; true when the person chose its action. */
  ask(question: Confirmation): Promise<boolean>;
  /** True when the app is ending for another reason than the person's Quit (a signal, a shutdown). */
  endingAnyway(): boolean;
}

interface PreventableEvent {
  preventDefault(): void;
}

/** The question for these processes; null when none runs. */
export function quitQuestion(running: readonly ProcessInfo[]): Confirmation | null {
  if (running.length === 0) return null;
  const one = running.length === 1;
  const names = running.map((process) => {
    const ports = process.ports.map((port) => `:${port}`).join(' ');
    return `${process.id}: ${process.command}${ports ? ` (${ports})` : ''}`;
  });
  return {
    action: one ? 'Stop it and quit' : 'Stop them and quit',
    message: one ? 'A background process is running' : `${running.length} background processes are running`,
    detail: `${names.join('\n')}\n\nQuitting ÆtherCodex stops ${one ? 'it' : 'them'} and everything ${one ? 'it' : 'they'} started.`,
  };
}

export class QuitGuard {
  private readonly options: QuitGuardOptions;
  /** The person chose to stop them: every later step of this quit goes through. */
  private confirmed = false;
  private asking: Promise<boolean> | null = null;

  constructor(options: QuitGuardOptions) {
    this.options = options;
  }

  /**
   * For the window's `close` and the app's `before-quit`: lets the event go on, or holds it and
   * asks. `proceed` is called once the person chose to stop them (it starts the quit again).
   * One question at a time: an event while it is open is held and waits for its answer.
   */
  check(event: PreventableEvent, proceed: () => void): void {
    if (this.confirmed || this.options.endingAnyway() || !this.options.anyRunning()) return;
    event.preventDefault();
    const first = this.asking === null;
    this.asking ??= this.askNow().finally(() => (this.asking = null));
    if (!first) return;
    void this.asking.then((stop) => {
      if (stop) proceed();
    });
  }

  private async askNow(): Promise<boolean> {
    let question: Confirmation | null;
    try {
      question = quitQuestion((await this.options.running()).filter((process) => process.state === 'running'));
    } catch {
      // They could not be listed: ask without the names rather than stop them unasked.
      question = {
        action: 'Stop them and quit',
        message: 'Background processes are running',
        detail: 'Quitting ÆtherCodex stops them and everything they started.',
      };
    }
    // They ended while it looked: nothing to ask about.
    const stop = question === null ? true : await this.options.ask(question);
    this.confirmed = stop;
    return stop;
  }
}
