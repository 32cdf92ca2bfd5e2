import { describe, expect, it } from 'vitest';
import { FileTurns } from './file-turns.ts';

// Writes of children that run side by side take turns per file.

function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('file turns', () => {
  it('runs a second write to a file only once the first has ended, and writes to other files at once', async () => {
    const turns = new FileTurns();
    const order: string[] = [];
    const first = gate();
    const one = turns.with(['/w/a.txt'], async () => {
      order.push('first starts');
      await first.opened;
      order.push('first ends');
    });
    const two = turns.with(['/w/a.txt'], async () => {
      order.push('second starts');
    });
    const other = turns.with(['/w/b.txt'], async () => {
      order.push('other file');
    });
    await other;
    expect(order).toEqual(['first starts', 'other file']);
    first.open();
    await Promise.all([one, two]);
    expect(order).toEqual(['first starts', 'other file', 'first ends', 'second starts']);
  });

  it('lets the next write go when a write fails', async () => {
    const turns = new FileTurns();
    await expect(turns.with(['/w/a.txt'], () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    expect(await turns.with(['/w/a.txt'], async () => 'written')).toBe('written');
  });

  it('never deadlocks two writes that name the same files in another order', async () => {
    const turns = new FileTurns();
    const results = await Promise.all([
      turns.with(['/w/a.txt', '/w/b.txt'], async () => 'ab'),
      turns.with(['/w/b.txt', '/w/a.txt'], async () => 'ba'),
    ]);
    expect(results).toEqual(['ab', 'ba']);
  });
});
