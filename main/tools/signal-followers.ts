// Controllers that abort when an outer signal does (a turn's Stop reaching each of its calls): one
// listener per outer signal, the controllers in a set, instead of an `AbortSignal.any` per call,
// which costs more than the rest of the tool pipeline together on a fast tool (bench/mcp-call.ts).

export class SignalFollowers {
  private readonly byOuter = new WeakMap<AbortSignal, Set<AbortController>>();

  /** Aborts `own` with `outer`'s reason when `outer` aborts; the answer stops following. */
  follow(outer: AbortSignal, own: AbortController): () => void {
    if (outer.aborted) {
      own.abort(outer.reason);
      return () => undefined;
    }
    let followers = this.byOuter.get(outer);
    if (!followers) {
      const set = new Set<AbortController>();
      outer.addEventListener(
        'abort',
        () => {
          for (const controller of set) controller.abort(outer.reason);
          set.clear();
        },
        { once: true },
      );
      this.byOuter.set(outer, set);
      followers = set;
    }
    const following = followers;
    following.add(own);
    return () => following.delete(own);
  }
}
