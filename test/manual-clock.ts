import type { Clock } from '../main/tools/progress-reporter.ts';

// A clock that moves only when a test says so: timers fire inside `advance`, in due order.

interface Pending {
  id: number;
  at: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  private time = 0;
  private nextId = 1;
  private pending: Pending[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.pending.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((timer) => timer.id !== handle);
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.pending.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = target;
  }

  get timersPending(): number {
    return this.pending.length;
  }
}
