// The wall-time deadline of one run_code program. Time during which a nested call waits for the
// person's approval is left out: the clock stops while any such wait is open and starts again,
// with what was left, when the last one ends. The deadline lives in shared memory, so the
// sandbox's interrupt handler sees a pause or a new deadline at once, even while the program is
// busy and the worker cannot take messages. Both sides read Date.now(), the one clock they share.

/** Stored while the clock is stopped: a deadline no clock reaches. */
const STOPPED = BigInt(Number.MAX_SAFE_INTEGER);

export class WallDeadline {
  /** The deadline (epoch milliseconds) in memory the worker reads with `deadlineReader`. */
  readonly shared = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  private readonly cell = new BigInt64Array(this.shared);
  private expire: () => void = () => undefined;
  private deadline: number;
  /** What was left when the clock stopped. */
  private remaining = 0;
  private waits = 0;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  /** The clock runs from here; `start` sets what happens when it runs out. */
  constructor(wallMs: number) {
    this.deadline = Date.now() + wallMs;
    Atomics.store(this.cell, 0, BigInt(this.deadline));
  }

  start(expire: () => void): void {
    this.expire = expire;
    if (this.waits === 0) this.arm();
  }

  /** Stops the clock until the returned function is called (once; further calls do nothing). */
  pause(): () => void {
    if (this.ended) return () => undefined;
    this.waits += 1;
    if (this.waits === 1) {
      clearTimeout(this.timer);
      this.remaining = Math.max(0, this.deadline - Date.now());
      Atomics.store(this.cell, 0, STOPPED);
    }
    let resumed = false;
    return () => {
      if (resumed || this.ended) return;
      resumed = true;
      this.waits -= 1;
      if (this.waits > 0) return;
      this.deadline = Date.now() + this.remaining;
      this.arm();
    };
  }

  /** The run is over: no timer, no more pauses. */
  end(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    Atomics.store(this.cell, 0, BigInt(this.deadline));
    this.timer = setTimeout(
      () => {
        if (!this.ended && this.waits === 0) this.expire();
      },
      Math.max(0, this.deadline - Date.now()),
    );
  }
}

/** The worker's view of a WallDeadline's shared memory: the current deadline, epoch milliseconds. */
export function deadlineReader(shared: SharedArrayBuffer): () => number {
  const cell = new BigInt64Array(shared);
  return () => Number(Atomics.load(cell, 0));
}
