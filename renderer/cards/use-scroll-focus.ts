import { useLayoutEffect, useState } from 'react';

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
  useLayoutEffect(() => {
    if (!element) return undefined;
    const measure = () =>
      setOverflows(element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, content]);
  return { ref: setElement, tabIndex: overflows ? 0 : undefined };
}
