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
    followers.unfollow(followers.follow(turn.signal, done));
    turn.abort(new Error('Stopped by the person'));
    expect(first.signal.reason).toEqual(new Error('Stopped by the person'));
    expect(second.signal.aborted).toBe(true);
    expect(done.signal.aborted).toBe(false);
  });

  it('takes out a follower from anywhere among the others: first, middle or last to follow', () => {
    const followers = new SignalFollowers();
    const turn = new AbortController();
    const calls = Array.from({ length: 5 }, () => new AbortController());
    const stops = calls.map((call) => followers.follow(turn.signal, call));
    for (const index of [2, 0, 4]) followers.unfollow(stops[index]!);
    followers.unfollow(stops[2]!); // twice is once
    turn.abort('stopped');
    expect(calls.map((call) => call.signal.aborted)).toEqual([false, true, false, true, false]);
    // Stopping after the abort changes nothing.
    followers.unfollow(stops[1]!);
    expect(calls[1]!.signal.reason).toBe('stopped');
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

  it('keeps one listener on the outer signal while calls follow it, and none once the last stops', () => {
    const followers = new SignalFollowers();
    const turn = new AbortController();
    const first = followers.follow(turn.signal, new AbortController());
    const second = followers.follow(turn.signal, new AbortController());
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    followers.unfollow(first);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    followers.unfollow(second);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    const later = new AbortController();
    followers.follow(turn.signal, later);
    turn.abort('stopped');
    expect(later.signal.reason).toBe('stopped');
  });

  it('with keep, leaves the listener for the next follower until the signal is released', () => {
    const followers = new SignalFollowers();
    const turn = new AbortController();
    followers.unfollow(followers.follow(turn.signal, new AbortController(), true));
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    const next = new AbortController();
    const stop = followers.follow(turn.signal, next, true);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    followers.release(turn.signal);
    // Released while a call still follows: the listener goes with that call.
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
    followers.unfollow(stop);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);

    const kept = new AbortController();
    followers.unfollow(followers.follow(turn.signal, new AbortController(), true));
    followers.follow(turn.signal, kept, true);
    turn.abort('stopped');
    expect(kept.signal.reason).toBe('stopped');
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    followers.release(turn.signal);
  });
});
