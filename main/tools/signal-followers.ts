// Controllers that abort when an outer signal does (a turn's Stop reaching each of its calls): one
// listener per outer signal while any call follows it, the controllers in a list, instead of an
// `AbortSignal.any` per call, which costs more than the rest of the tool pipeline together on a fast
// tool (bench/mcp-call.ts). Each follower is one small node linked into its signal's list, and
// unfollow takes it out at once: a Set would give each new controller an identity hash, and a closure
// per follower is one more object, both of which cost, cold, more than the rest of following. The
// listener goes when its last follower does, so a signal keeps nothing of the calls that ran under
// it; one followed with `keep` (a turn's, whose calls come one after another) keeps it until it is
// released (the turn ended) or aborts: adding and removing it for each call cost more, cold, than the
// rest of following.

interface Following {
  readonly outer: AbortSignal;
  first: Follower | null;
  readonly onAbort: () => void;
  /** The listener stays after the last follower left, until release(). */
  kept: boolean;
}

/** One controller following an outer signal; `list` is null once it stopped following. */
export interface Follower {
  readonly controller: AbortController;
  previous: Follower | null;
  next: Follower | null;
  list: Following | null;
}

export class SignalFollowers {
  private readonly byOuter = new WeakMap<AbortSignal, Following>();

  /**
   * Aborts `own` with `outer`'s reason when `outer` aborts, until unfollow(answer); null when `outer`
   * had aborted already (so has `own`, at once). With `keep`, the listener on `outer` outlives its
   * followers until release(outer).
   */
  follow(outer: AbortSignal, own: AbortController, keep = false): Follower | null {
    if (outer.aborted) {
      own.abort(outer.reason);
      return null;
    }
    const list = this.byOuter.get(outer) ?? this.listen(outer);
    if (keep) list.kept = true;
    const follower: Follower = { controller: own, previous: null, next: list.first, list };
    if (list.first) list.first.previous = follower;
    list.first = follower;
    return follower;
  }

  /** The follower's controller no longer aborts with its outer signal (a second call does nothing). */
  unfollow(follower: Follower | null): void {
    const list = follower?.list;
    if (!follower || !list) return;
    follower.list = null;
    if (follower.previous) follower.previous.next = follower.next;
    else if (list.first === follower) list.first = follower.next;
    else return; // An abort emptied the list: nothing follows any more.
    if (follower.next) follower.next.previous = follower.previous;
    if (list.first === null && !list.kept) this.drop(list);
  }

  /** `outer` is done with (its turn ended): its listener goes now, or with its last follower. */
  release(outer: AbortSignal): void {
    const list = this.byOuter.get(outer);
    if (!list) return;
    list.kept = false;
    if (list.first === null) this.drop(list);
  }

  private listen(outer: AbortSignal): Following {
    const list: Following = {
      outer,
      first: null,
      onAbort: () => {
        outer.removeEventListener('abort', list.onAbort);
        this.byOuter.delete(outer);
        let follower = list.first;
        list.first = null;
        for (; follower; follower = follower.next) follower.controller.abort(outer.reason);
      },
      kept: false,
    };
    // Not `{ once: true }`: the listener removes itself, and the option alone doubles what adding costs.
    outer.addEventListener('abort', list.onAbort);
    this.byOuter.set(outer, list);
    return list;
  }

  private drop(list: Following): void {
    list.outer.removeEventListener('abort', list.onAbort);
    if (this.byOuter.get(list.outer) === list) this.byOuter.delete(list.outer);
  }
}
