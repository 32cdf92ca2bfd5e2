// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { expect, it } from 'vitest';
import { useFollowBottom } from './follow.ts';

// jsdom lays nothing out: every scroll lands "at the bottom", as a list that grows at its end does.

function followed() {
  const { result } = renderHook(() => useFollowBottom());
  const scroller = document.createElement('div');
  act(() => result.current.scrollerRef(scroller));
  const scroll = () => scroller.dispatchEvent(new Event('scroll'));
  return { result, scroller, scroll };
}

it('stops following on a move up and resumes when the view reaches the bottom again', () => {
  const { result, scroller, scroll } = followed();
  expect(result.current.followOutput()).toBe('auto');
  scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -40 }));
  expect(result.current.followOutput()).toBe(false);
  scroll();
  expect(result.current.followOutput()).toBe('auto');
});

it('after the person acts on a row, a scroll the list makes near the bottom does not pull the view back to the end', () => {
  const { result, scroller, scroll } = followed();
  act(() => result.current.stopFollowing());
  scroll();
  expect(result.current.followOutput()).toBe(false);
  // Their own move down to the bottom resumes it.
  scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: 40 }));
  scroll();
  expect(result.current.followOutput()).toBe('auto');
  // So does "Jump to latest".
  act(() => result.current.stopFollowing());
  act(() => result.current.jumpToLatest());
  expect(result.current.followOutput()).toBe('auto');
});
