// The highlighting worker's work list: one request at a time, in the order asked, with a return to
// the worker's message loop between two, so a cancel that arrives meanwhile (a card scrolled out of
// the view before its turn) takes its request off the list before it costs anything. Requests for
// cards not drawn yet (colours-ahead.ts) wait behind those of cards on screen, until one is drawn.

export interface HighlightQueue<Job> {
  /** `ahead`: for a card not drawn yet, run after every request of a drawn one. */
  add: (id: number, job: Job, ahead?: boolean) => void;
  /** The card a request was made ahead for is drawn: it runs with theirs, in its order. */
  hurry: (id: number) => void;
  /** Takes the request off the list if it has not started; one already running finishes. */
  cancel: (id: number) => void;
  /** Requests waiting, not counting one running. */
  readonly waiting: number;
}

/**
 * Runs `run` on each job added, one after the other; `pause` lets messages in between two. `ready`
 * is awaited with the next job still on the list (its language loading, seconds the first time),
 * so a cancel that arrives meanwhile takes it off before it runs.
 */
export function createHighlightQueue<Job>(
  run: (id: number, job: Job) => Promise<void>,
  pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
  ready?: (job: Job) => Promise<void>,
): HighlightQueue<Job> {
  const now = new Map<number, Job>();
  const later = new Map<number, Job>();
  const first = () => now.entries().next().value ?? later.entries().next().value;
  let running = false;
  const pump = async () => {
    running = true;
    try {
      for (let next = first(); next; next = first()) {
        const [id, job] = next;
        if (ready) {
          await ready(job).catch(() => undefined);
          // Cancelled or overtaken meanwhile: the list's new first job is next.
          if (first()?.[0] !== id) continue;
        }
        now.delete(id);
        later.delete(id);
        await run(id, job).catch(() => undefined);
        await pause();
      }
    } finally {
      running = false;
    }
  };
  return {
    add(id, job, ahead = false) {
      (ahead ? later : now).set(id, job);
      if (!running) void pump();
    },
    hurry(id) {
      const job = later.get(id);
      if (job === undefined) return;
      later.delete(id);
      now.set(id, job);
    },
    cancel(id) {
      now.delete(id);
      later.delete(id);
    },
    get waiting() {
      return now.size + later.size;
    },
  };
}
