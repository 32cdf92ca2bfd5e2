import { useLayoutEffect, useRef, useState } from 'react';

// A box whose lines are wider (or taller) than itself scrolls, and so must be reachable from the
// keyboard: while it overflows it takes a place in the Tab order, where the arrow keys scroll it
// (WCAG 2.1.1; axe's scrollable-region-focusable). A box that fits stays out of the way.

/** A ref callback for the box, and its tabIndex: 0 while it overflows, undefined otherwise. */
export function useScrollFocus(content: unknown): {
  ref: (element: HTMLElement | null) => void;
  tabIndex: 0 | undefined;
} {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [overflows, setOverflows] = useState(false);
  const observed = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!element) return undefined;
    const measure = () =>
      setOverflows(element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
    if (typeof ResizeObserver === 'undefined') {
      measure();
      return undefined;
    }
    // Read once the browser has laid the box out, never by forcing a layout while it mounts (a list
    // of cards mounting a dozen boxes would lay the page out a dozen times): the observer reports
    // the box's first size and each change; new content in a box of the same size, the next frame.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const again = observed.current === element ? requestAnimationFrame(measure) : 0;
    observed.current = element;
    return () => {
      observer.disconnect();
      cancelAnimationFrame(again);
    };
  }, [element, content]);
  return { ref: setElement, tabIndex: overflows ? 0 : undefined };
}
