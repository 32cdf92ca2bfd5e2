import { afterEach, describe, expect, it, vi } from 'vitest';
import { Broadcast } from './broadcast.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Broadcast', () => {
  it('still reaches the other listeners when one throws, and logs the failure under its label', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broadcast = new Broadcast<number>('test');
    const heard: number[] = [];
    broadcast.subscribe(() => {
      throw new Error('broken listener');
    });
    broadcast.subscribe((value) => heard.push(value));
    broadcast.publish(7);
    expect(heard).toEqual([7]);
    expect(logged).toHaveBeenCalledWith('test listener failed:', expect.any(Error));
  });

  it('stops telling a listener once it unsubscribes', () => {
    const broadcast = new Broadcast<number>('test');
    const heard: number[] = [];
    const unsubscribe = broadcast.subscribe((value) => heard.push(value));
    broadcast.publish(1);
    unsubscribe();
    broadcast.publish(2);
    expect(heard).toEqual([1]);
    expect(broadcast.size).toBe(0);
  });
});
