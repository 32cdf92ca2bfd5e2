// Controllers that abort when an outer signal does (a turn's Stop reaching each of its calls): one
// listener per outer signal while any call follows it, the controllers in a list, instead of an
// `AbortSignal.any` per call, which costs more than the rest of the tool pipeline together on a fast
// tool (bench/mcp-call.ts). The list is linked through one small node per follower, which its
// unfollow takes out at once: a Set would give each new controller an identity hash, which costs
// more, cold, than the rest of following. The listener goes when its last follower does, so a signal
// keeps nothing of the calls that ran under it; one followed with `keep` (a turn's, whose calls come
// one after another) keeps it until it is released (the turn ended) or aborts: adding and removing it
// for each call cost more, cold, than the rest of following.

interface Follower {
  controller: AbortController;
  previous: Follower | null;
  next: Follower | null;
}

interface Following {
  first: Follower | null;
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
    if (!following) following = this.listen(outer);
    const mine = following;
    if (keep) mine.kept = true;
    const follower: Follower = { controller: own, previous: null, next: mine.first };
    if (mine.first) mine.first.previous = follower;
    mine.first = follower;
    let linked = true;
    return () => {
      if (!linked) return;
      linked = false;
      if (follower.previous) follower.previous.next = follower.next;
      else if (mine.first === follower) mine.first = follower.next;
      else return; // An abort emptied the list: nothing follows any more.
      if (follower.next) follower.next.previous = follower.previous;
      if (mine.first === null && !mine.kept) this.drop(outer, mine);
    };
  }

  /** `outer` is done with (its turn ended): its listener goes now, or with its last follower. */
  release(outer: AbortSignal): void {
    const following = this.byOuter.get(outer);
    if (!following) return;
    following.kept = false;
    if (following.first === null) this.drop(outer, following);
  }

  private listen(outer: AbortSignal): Following {
    const following: Following = {
      first: null,
      onAbort: () => {
        outer.removeEventListener('abort', following.onAbort);
        this.byOuter.delete(outer);
        let follower = following.first;
        following.first = null;
        for (; follower; follower = follower.next) follower.controller.abort(outer.reason);
      },
      kept: false,
    };
    // Not `{ once: true }`: the listener removes itself, and the option alone doubles what adding costs.
    outer.addEventListener('abort', following.onAbort);
    this.byOuter.set(outer, following);
    return following;
  }

  private drop(outer: AbortSignal, following: Following): void {
    outer.removeEventListener('abort', following.onAbort);
    if (this.byOuter.get(outer) === following) this.byOuter.delete(outer);
  }
}
