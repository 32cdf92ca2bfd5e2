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
  const jobs = new Map<number, Job>();
  let running = false;
  const pump = async () => {
    running = true;
    try {
      for (;;) {
        const next = jobs.entries().next();
        if (next.done) return;
        const [id, job] = next.value;
        if (ready) {
          await ready(job).catch(() => undefined);
          // Cancelled meanwhile: the list's new first job is next.
          if (!jobs.has(id)) continue;
        }
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
