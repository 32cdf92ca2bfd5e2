import { useCallback, useRef, useState } from 'react';

// Following the end of the transcript. New rows and rows that grow (streamed text, live command
// output) keep the view at the bottom only while the person is there. Any move up (wheel, keys,
// touch, grabbing the scrollbar) stops the following at once, before the next growth could pull
// them back; reaching the bottom again, by scrolling or "Jump to latest", resumes it. Once the
// person acts on a row (opens a group), only their own move can resume it: a scroll the growing
// list makes on its own, near the bottom, does not.

const BOTTOM_SLACK_PX = 64;
const UPWARD_KEYS: ReadonlySet<string> = new Set(['ArrowUp', 'PageUp', 'Home']);

export interface FollowBottom {
  scrollerRef: (element: HTMLElement | Window | null) => void;
  /** For Virtuoso's `followOutput`: new rows scroll into view only while following. */
  followOutput: () => 'auto' | false;
  /** For Virtuoso's `totalListHeightChanged`: a growing row keeps the end in view while following. */
  onHeightChanged: () => void;
  atBottom: boolean;
  onAtBottom: (atBottom: boolean) => void;
  jumpToLatest: () => void;
  /** The person acted on a row (opened a group): the view stays with it as it grows. */
  stopFollowing: () => void;
}

export function useFollowBottom(): FollowBottom {
  const following = useRef(true);
  /** Set when the person acted on a row: reaching the bottom resumes following only after a move of theirs. */
  const held = useRef(false);
  const scroller = useRef<HTMLElement | null>(null);
  const detach = useRef<(() => void) | null>(null);
  const [atBottom, setAtBottom] = useState(true);

  const toBottom = useCallback(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  const scrollerRef = useCallback((target: HTMLElement | Window | null) => {
    detach.current?.();
    detach.current = null;
    const element = target instanceof HTMLElement ? target : null;
    scroller.current = element;
    if (!element) return;
    const stop = () => {
      following.current = false;
      held.current = false;
    };
    const onWheel = (event: WheelEvent) => {
      held.current = false;
      if (event.deltaY < 0) stop();
    };
    const onKey = (event: KeyboardEvent) => {
      held.current = false;
      if (UPWARD_KEYS.has(event.key) || (event.key === ' ' && event.shiftKey)) stop();
    };
    // A press on the scroller itself (not on a row) is a grab of the scrollbar.
    const onPointer = (event: PointerEvent) => {
      if (event.target === element) stop();
    };
    const onScroll = () => {
      if (held.current) return;
      if (element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX) following.current = true;
    };
    element.addEventListener('wheel', onWheel, { passive: true });
    element.addEventListener('keydown', onKey);
    element.addEventListener('touchmove', stop, { passive: true });
    element.addEventListener('pointerdown', onPointer);
    element.addEventListener('scroll', onScroll, { passive: true });
    detach.current = () => {
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('keydown', onKey);
      element.removeEventListener('touchmove', stop);
      element.removeEventListener('pointerdown', onPointer);
      element.removeEventListener('scroll', onScroll);
    };
  }, []);

  return {
    scrollerRef,
    followOutput: useCallback(() => (following.current ? 'auto' : false), []),
    onHeightChanged: useCallback(() => {
      if (following.current) toBottom();
    }, [toBottom]),
    atBottom,
    onAtBottom: setAtBottom,
    jumpToLatest: useCallback(() => {
      held.current = false;
      following.current = true;
      toBottom();
    }, [toBottom]),
    stopFollowing: useCallback(() => {
      following.current = false;
      held.current = true;
    }, []),
  };
}
