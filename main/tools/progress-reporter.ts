import type { ToolProgress } from '../../protocol/tools.ts';

// Throttled progress for a live card (the live-progress contract): at most one report per interval,
// leading and trailing. A report carries everything so far (the card replaces its view wholesale),
// so a dropped report loses nothing: the next one, or the final flush, shows the same and more.

export const PROGRESS_INTERVAL_MS = 150;

/** Time as a parameter, so tests move it by hand. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ReporterCounters {
  /** Reports sent. */
  sent: number;
  /** Changes folded into a report already scheduled, instead of getting their own. */
  dropped: number;
  /** UTF-8 bytes of the text of every report sent. */
  bytesSent: number;
}

export class ProgressReporter {
  private readonly snapshot: () => ToolProgress;
  private readonly send: (progress: ToolProgress) => void;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private lastSentAt: number | null = null;
  private timer: unknown = null;
  private dirty = false;
  private stopped = false;

  readonly counters: ReporterCounters = { sent: 0, dropped: 0, bytesSent: 0 };

  constructor(
    snapshot: () => ToolProgress,
    send: (progress: ToolProgress) => void,
    clock: Clock = systemClock,
    intervalMs = PROGRESS_INTERVAL_MS,
  ) {
    this.snapshot = snapshot;
    this.send = send;
    this.clock = clock;
    this.intervalMs = intervalMs;
  }

  /** Something new was captured. Returns at once; the report goes now or at the end of the interval. */
  notify(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.timer !== null) {
      this.counters.dropped += 1;
      return;
    }
    const now = this.clock.now();
    const wait = this.lastSentAt === null ? 0 : this.lastSentAt + this.intervalMs - now;
    if (wait <= 0) {
      this.emit();
      return;
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      if (this.dirty && !this.stopped) this.emit();
    }, wait);
  }

  /** The last report, if anything changed since the one before; then no more reports. */
  flush(): void {
    if (this.stopped) return;
    this.cancelTimer();
    if (this.dirty) this.emit();
    this.stopped = true;
  }

  /** No more reports, and nothing pending. */
  stop(): void {
    this.cancelTimer();
    this.stopped = true;
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private emit(): void {
    this.dirty = false;
    this.lastSentAt = this.clock.now();
    const progress = this.snapshot();
    this.counters.sent += 1;
    this.counters.bytesSent += Buffer.byteLength(progress.text);
    try {
      this.send(progress);
    } catch {
      // A report is cosmetic: a failing listener must never stop the command it describes.
    }
  }
}
