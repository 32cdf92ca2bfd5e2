// Controllers that abort when an outer signal does (a turn's Stop reaching each of its calls): one
// listener per outer signal while any call follows it, the controllers in a set, instead of an
// `AbortSignal.any` per call, which costs more than the rest of the tool pipeline together on a fast
// tool (bench/mcp-call.ts). The listener goes when its last follower does, so a signal keeps nothing
// of the calls that ran under it; one followed with `keep` (a turn's, whose calls come one after
// another) keeps it until it is released (the turn ended) or aborts: adding and removing it for each
// call cost more, cold, than the rest of following.

interface Following {
  controllers: Set<AbortController>;
  onAbort: () => void;
  /** The listener stays after the last follower left, until release(). */
  kept: boolean;
}

export class SignalFollowers {
  private readonly byOuter = new WeakMap<AbortSignal, Following>();

  /**
   * Aborts `own` with `outer`'s reason when `outer` aborts; the answer stops following. With `keep`,
   * the listener on `outer` outlives its followers until release(outer).
   */
  follow(outer: AbortSignal, own: AbortController, keep = false): () => void {
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
      following = { controllers, onAbort, kept: false };
      this.byOuter.set(outer, following);
    }
    const mine = following;
    if (keep) mine.kept = true;
    mine.controllers.add(own);
    return () => {
      if (!mine.controllers.delete(own) || mine.controllers.size > 0 || mine.kept) return;
      this.drop(outer, mine);
    };
  }

  /** `outer` is done with (its turn ended): its listener goes now, or with its last follower. */
  release(outer: AbortSignal): void {
    const following = this.byOuter.get(outer);
    if (!following) return;
    following.kept = false;
    if (following.controllers.size === 0) this.drop(outer, following);
  }

  private drop(outer: AbortSignal, following: Following): void {
    outer.removeEventListener('abort', following.onAbort);
    if (this.byOuter.get(outer) === following) this.byOuter.delete(outer);
  }
}
