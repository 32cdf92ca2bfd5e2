// Controllers that abort when an outer signal does (a turn's Stop reaching each of its calls): one
// listener per outer signal, the running calls' controllers in a set, instead of an
// `AbortSignal.any` per call, which costs more than the rest of the tool pipeline together on a fast
// tool (bench/mcp-call.ts). The listener and its set stay on the outer signal for as long as it
// lives (a turn's, a program's), so a call only adds its controller to the set and takes it out
// again: adding and removing a listener, and the weak map's entry, on every call cost several
// times that after an idle pause. A call that ended is out of the set, so the outer signal keeps
// nothing of the calls that ran under it; the listener goes when the outer signal aborts.

interface Following {
  controllers: Set<AbortController>;
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
      following = { controllers };
      this.byOuter.set(outer, following);
    }
    const { controllers } = following;
    controllers.add(own);
    return () => void controllers.delete(own);
  }
}
