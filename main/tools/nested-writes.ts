// Nested calls' records on their way to the session log, by the call that made them. A nested
// call's records are made durable with its program's result (they are written without an fsync of
// their own), so the program hears back without waiting for them; the program's completion waits
// for them, and fails as its own write would if one of them failed.

export class NestedWrites {
  private readonly held = new Map<string, Promise<unknown>[]>();

  hold(parent: string, written: Promise<unknown>): void {
    // Awaited by the parent's completion; until then a failure is not an unhandled rejection.
    written.catch(() => undefined);
    const list = this.held.get(parent);
    if (list) list.push(written);
    else this.held.set(parent, [written]);
  }

  /** The writes held for `callId`'s nested calls, once (the entry is dropped). */
  take(callId: string): Promise<unknown>[] | undefined {
    if (this.held.size === 0) return undefined;
    const list = this.held.get(callId);
    if (list) this.held.delete(callId);
    return list;
  }
}
