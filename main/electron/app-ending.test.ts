import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/manual-clock.ts';
import { AppEnding } from './app-ending.ts';

// How the desktop app ends, with stand-ins for Electron's app, powerMonitor and window (the binary
// cannot run here): each way reaches the panel service's close with its reason, `will-quit` waits
// for it, and what does not stop in time is cut short.

class FakeApp {
  quits = 0;
  exitCode: number | null = null;
  quit(): void {
    this.quits += 1;
  }
  exit(code?: number): void {
    this.exitCode = code ?? 0;
  }
}

function setup() {
  const app = new FakeApp();
  const clock = new ManualClock();
  const reasons: Array<string | undefined> = [];
  const closes: Array<() => void> = [];
  const ending = new AppEnding({
    app,
    timers: clock,
    deadlineMs: 8000,
    close: (reason) => {
      reasons.push(reason);
      return new Promise((resolve) => closes.push(resolve));
    },
  });
  /** Emits `will-quit` as Electron would; true when the quit was held. */
  const willQuit = (): boolean => {
    let held = false;
    ending.willQuit({ preventDefault: () => (held = true) });
    return held;
  };
  return { app, clock, reasons, closes, ending, willQuit };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the desktop app ending', () => {
  it('holds the quit until the service has closed, then quits for good', async () => {
    const { app, reasons, closes, willQuit } = setup();

    expect(willQuit()).toBe(true);
    expect(reasons).toEqual([undefined]);
    closes[0]!();
    await settle();

    expect(app.quits).toBe(1);
    expect(willQuit()).toBe(false);
    expect(reasons).toHaveLength(1);
  });

  it('quits on SIGTERM and SIGHUP saying so, on SIGINT as the person’s quit', () => {
    for (const [signal, reason] of [
      ['SIGTERM', 'Stopped: ÆtherCodex was sent SIGTERM.'],
      ['SIGHUP', 'Stopped: ÆtherCodex was sent SIGHUP.'],
      ['SIGINT', undefined],
    ] as const) {
      const { app, reasons, ending, willQuit } = setup();
      const signals = new EventEmitter();
      ending.listenToSignals(signals as unknown as NodeJS.Process);
      expect(ending.endingAnyway).toBe(false);

      signals.emit(signal);
      willQuit();

      expect(app.quits).toBe(1);
      expect(reasons).toEqual([reason]);
      // No question before Quit (the background processes) holds a quit a signal asked for.
      expect(ending.endingAnyway).toBe(true);
    }
  });

  it('delays a system shutdown and quits saying why; the Windows session ending quits too', () => {
    const power = setup();
    const monitor = new EventEmitter();
    power.ending.watchPower(monitor);
    let delayed = false;
    monitor.emit('shutdown', { preventDefault: () => (delayed = true) });
    power.willQuit();
    expect(delayed).toBe(true);
    expect(power.ending.endingAnyway).toBe(true);
    expect(power.reasons).toEqual(['Stopped: the system is shutting down.']);

    const windows = setup();
    const window = new EventEmitter();
    windows.ending.watchWindow(window);
    window.emit('session-end', { reasons: ['logoff'] });
    windows.willQuit();
    expect(windows.reasons).toEqual(['Stopped: the Windows session is ending.']);
  });

  it('exits at once on a second signal while closing, and at the deadline when closing hangs', () => {
    const signalled = setup();
    const signals = new EventEmitter();
    signalled.ending.listenToSignals(signals as unknown as NodeJS.Process);
    signals.emit('SIGTERM');
    signalled.willQuit();
    signals.emit('SIGINT');
    expect(signalled.app.exitCode).toBe(130);

    const hung = setup();
    hung.willQuit();
    hung.clock.advance(7999);
    expect(hung.app.exitCode).toBeNull();
    hung.clock.advance(1);
    expect(hung.app.exitCode).toBe(1);
  });

  it('lets the quit through when no service runs', () => {
    const app = new FakeApp();
    const ending = new AppEnding({ app, close: () => null });
    let held = false;
    ending.willQuit({ preventDefault: () => (held = true) });
    expect(held).toBe(false);
  });
});
