// The highlighting worker's work list: one request at a time, in the order asked, with a return to
// the worker's message loop between two, so a cancel that arrives meanwhile (a card scrolled out of
// the view before its turn) takes its request off the list before it costs anything.

export interface HighlightQueue<Job> {
  add: (id: number, job: Job) => void;
  /** Takes the request off the list if it has not started; one already running finishes. */
  cancel: (id: number) => void;
  /** Requests waiting, not counting one running. */
  readonly waiting: number;
}

/** Runs `run` on each job added, one after the other; `pause` lets messages in between two. */
export function createHighlightQueue<Job>(
  run: (id: number, job: Job) => Promise<void>,
  pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
): HighlightQueue<Job> {
  const jobs = new Map<number, Job>();
  let running = false;
  const pump = async () => {
    running = true;
    try {
      for (;;) {
        const next = jobs.entries().next();
        if (next.done) return;
        const [id, job] = next.value;
        jobs.delete(id);
        await run(id, job).catch(() => undefined);
        await pause();
      }
    } finally {
      running = false;
    }
  };
  return {
    add(id, job) {
      jobs.set(id, job);
      if (!running) void pump();
    },
    cancel(id) {
      jobs.delete(id);
    },
    get waiting() {
      return jobs.size;
    },
  };
}
