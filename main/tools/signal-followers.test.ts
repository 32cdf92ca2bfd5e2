import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SignalFollowers } from './signal-followers.ts';

// A call's own controller follows the turn's signal: aborted with its reason, unless it stopped
// following first; an outer signal already aborted aborts at once.

describe('signal followers', () => {
  it('aborts every following controller with the outer reason, and none that stopped following', () => {
    const followers = new SignalFollowers();
    const turn = new AbortController();
    const first = new AbortController();
    const second = new AbortController();
    const done = new AbortController();
    followers.follow(turn.signal, first);
    followers.follow(turn.signal, second);
    followers.follow(turn.signal, done)();
    turn.abort(new Error('Stopped by the person'));
    expect(first.signal.reason).toEqual(new Error('Stopped by the person'));
    expect(second.signal.aborted).toBe(true);
    expect(done.signal.aborted).toBe(false);
  });

  it('aborts at once after an outer signal that already aborted, and leaves the outer alone when one call stops', () => {
    const followers = new SignalFollowers();
    const turn = new AbortController();
    const own = new AbortController();
    followers.follow(turn.signal, own);
    own.abort();
    expect(turn.signal.aborted).toBe(false);
    turn.abort('gone');
    const late = new AbortController();
    followers.follow(turn.signal, late);
    expect(late.signal.reason).toBe('gone');
  });

  it('keeps one listener on the outer signal however many calls follow it, and aborts only those still following', () => {
    const followers = new SignalFollowers();
    const turn = new AbortController();
    const ended: AbortController[] = [];
    for (let index = 0; index < 100; index += 1) {
      const own = new AbortController();
      const stop = followers.follow(turn.signal, own);
      expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
      stop();
      ended.push(own);
    }
    // Kept between calls: the next call adds no listener of its own.
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    const running = new AbortController();
    followers.follow(turn.signal, running);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    turn.abort('stopped');
    expect(running.signal.reason).toBe('stopped');
    expect(ended.some((own) => own.signal.aborted)).toBe(false);
    // The listener went with the abort; a second outer signal gets its own.
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    const next = new AbortController();
    const later = new AbortController();
    followers.follow(next.signal, later);
    expect(getEventListeners(next.signal, 'abort')).toHaveLength(1);
    next.abort('again');
    expect(later.signal.reason).toBe('again');
  });
});
