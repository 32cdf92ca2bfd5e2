import { describe, expect, it } from 'vitest';
import { createHighlightQueue } from './highlight-queue.ts';

// The worker's work list: one request at a time, in order, and a cancelled one never runs.

function gate() {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the highlighting queue', () => {
  it('runs the requests one at a time, in the order asked', async () => {
    const log: string[] = [];
    const first = gate();
    const done = gate();
    const queue = createHighlightQueue<string>(async (id, job) => {
      log.push(`start ${id} ${job}`);
      if (id === 1) await first.opened;
      log.push(`end ${id}`);
      if (id === 3) done.open();
    });
    queue.add(1, 'a');
    queue.add(2, 'b');
    queue.add(3, 'c');
    expect(log).toEqual(['start 1 a']);
    expect(queue.waiting).toBe(2);
    first.open();
    await done.opened;
    expect(log).toEqual(['start 1 a', 'end 1', 'start 2 b', 'end 2', 'start 3 c', 'end 3']);
  });

  it('never runs a request cancelled before its turn, and finishes the one running', async () => {
    const ran: number[] = [];
    const first = gate();
    const done = gate();
    const queue = createHighlightQueue<null>(async (id) => {
      if (id === 1) await first.opened;
      ran.push(id);
      if (id === 3) done.open();
    });
    queue.add(1, null);
    queue.add(2, null);
    queue.add(3, null);
    queue.cancel(1);
    queue.cancel(2);
    expect(queue.waiting).toBe(1);
    first.open();
    await done.opened;
    expect(ran).toEqual([1, 3]);
  });

  it('lets messages in between two requests: a cancel sent while one runs stops the next', async () => {
    const ran: number[] = [];
    let between = () => undefined as void;
    const queue = createHighlightQueue<null>(
      async (id) => {
        ran.push(id);
      },
      () =>
        new Promise<void>((resolve) => {
          between = resolve;
        }),
    );
    queue.add(1, null);
    queue.add(2, null);
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toEqual([1]);
    queue.cancel(2);
    between();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual([1]);
    expect(queue.waiting).toBe(0);
  });

  it('never runs a request cancelled while it waited for its language, and runs the next', async () => {
    const ran: number[] = [];
    const language = gate();
    const done = gate();
    const queue = createHighlightQueue<string>(
      async (id) => {
        ran.push(id);
        done.open();
      },
      () => Promise.resolve(),
      (job) => (job === 'typescript' ? language.opened : Promise.resolve()),
    );
    queue.add(1, 'typescript');
    queue.add(2, 'python');
    await Promise.resolve();
    queue.cancel(1);
    language.open();
    await done.opened;
    expect(ran).toEqual([2]);
    expect(queue.waiting).toBe(0);
  });

  it('runs the requests made ahead after those of drawn cards, and one hurried with them', async () => {
    const ran: number[] = [];
    const first = gate();
    const done = gate();
    const queue = createHighlightQueue<null>(async (id) => {
      if (id === 1) await first.opened;
      ran.push(id);
      if (ran.length === 5) done.open();
    });
    queue.add(1, null);
    queue.add(2, null, true);
    queue.add(3, null, true);
    queue.add(4, null);
    queue.add(5, null, true);
    queue.hurry(5);
    first.open();
    await done.opened;
    expect(ran).toEqual([1, 4, 5, 2, 3]);
  });

  it('goes on after a request that failed', async () => {
    const done = gate();
    const queue = createHighlightQueue<null>(async (id) => {
      if (id === 1) throw new Error('grammar failed to load');
      done.open();
    });
    queue.add(1, null);
    queue.add(2, null);
    await done.opened;
    expect(queue.waiting).toBe(0);
  });
});
