// Controllers that abort when an outer signal does (a turn's Stop reaching each of its calls): one
// listener per outer signal while any call follows it, the controllers in a set, instead of an
// `AbortSignal.any` per call, which costs more than the rest of the tool pipeline together on a fast
// tool (bench/mcp-call.ts). The listener goes when its last follower does: a turn's signal keeps
// nothing of the calls that ran under it.

interface Following {
  controllers: Set<AbortController>;
  onAbort: () => void;
}

export class SignalFollowers {
  private readonly byOuter = new WeakMap<AbortSignal, Following>();

  /** Aborts `own` with `outer`'s reason when `outer` aborts; the answer stops following. */
  follow(outer: AbortSignal, own: AbortController): () => void {
    if (outer.aborted) {
      own.abort(outer.reason);
      return () => undefined;
    }
    let following = this.byOuter.get(outer);
    if (!following) {
      const controllers = new Set<AbortController>();
      const onAbort = (): void => {
        outer.removeEventListener('abort', onAbort);
        this.byOuter.delete(outer);
        for (const controller of controllers) controller.abort(outer.reason);
        controllers.clear();
      };
      // Not `{ once: true }`: the listener removes itself, and the option alone doubles what adding costs.
      outer.addEventListener('abort', onAbort);
      following = { controllers, onAbort };
      this.byOuter.set(outer, following);
    }
    const mine = following;
    mine.controllers.add(own);
    return () => {
      if (!mine.controllers.delete(own) || mine.controllers.size > 0) return;
      outer.removeEventListener('abort', mine.onAbort);
      if (this.byOuter.get(outer) === mine) this.byOuter.delete(outer);
    };
  }
}
