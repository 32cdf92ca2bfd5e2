// How many children run at once: a call past the bound waits for a slot, and gives up its place
// when its call is stopped while it waits.

export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(count: number) {
    this.free = Math.max(1, Math.floor(count));
  }

  /** Resolves with the slot's release once one is free; rejects when `signal` aborts first. */
  take(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : abortError());
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const ready = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        const index = this.waiting.indexOf(ready);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason instanceof Error ? signal.reason : abortError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(ready);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot goes straight to the next waiter.
      if (next) next();
      else this.free += 1;
    };
  }
}

function abortError(): DOMException {
  return new DOMException('Stopped while waiting for a free agent slot.', 'AbortError');
}
