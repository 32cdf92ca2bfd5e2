import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';

// A long card body that keeps its size: the lines scroll inside a box of bounded height, and only
// the lines in view (and a few around them) are in the DOM, so a 2 000-line diff is a few dozen
// elements, not a 36 000 px card. Every line has the same height, so where a line sits is arithmetic.
// The box takes keyboard focus: arrows, Page Up/Down, Home and End scroll it.

/** Height of one line, in pixels; the stylesheet gives virtual rows exactly this height. */
export const LINE_HEIGHT = 18;

/** Lines rendered beyond each edge of the view, so a fast scroll does not show blank rows. */
const OVERSCAN = 20;

/** The view's height before it is measured (and where layout does not exist). */
const UNMEASURED_HEIGHT = 600;

export interface LineWindow {
  first: number;
  /** One past the last line rendered. */
  end: number;
}

/** Which lines to render for a view scrolled to `top` and `height` pixels tall. */
export function lineWindow(count: number, top: number, height: number): LineWindow {
  const first = Math.max(0, Math.floor(top / LINE_HEIGHT) - OVERSCAN);
  const end = Math.min(count, Math.ceil((top + height) / LINE_HEIGHT) + OVERSCAN);
  return { first, end: Math.max(first, end) };
}

export interface VirtualLinesProps {
  count: number;
  /** One line; keyed by its index. */
  renderLine: (index: number) => ReactNode;
  label: string;
  testId: string;
  className?: string;
  style?: CSSProperties;
  /** A line to show near the top when the box first appears (a file link's line). */
  initialLine?: number;
}

/** Lines kept above a line scrolled to, so it is seen with what leads to it. */
const LEAD_LINES = 5;

export function VirtualLines({
  count,
  renderLine,
  label,
  testId,
  className = '',
  style,
  initialLine,
}: VirtualLinesProps) {
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef(0);
  const initialTop = Math.max(0, ((initialLine ?? 0) - LEAD_LINES) * LINE_HEIGHT);
  const [view, setView] = useState({ top: initialTop, height: 0 });

  // Before the first paint, so the box never shows its top first and then jumps.
  useLayoutEffect(() => {
    if (box.current && initialTop > 0) box.current.scrollTop = initialTop;
    // Only when the box appears: later the person scrolls it.
  }, []);

  const measure = useCallback(() => {
    frame.current = 0;
    const element = box.current;
    if (!element) return;
    setView((last) =>
      last.top === element.scrollTop && last.height === element.clientHeight
        ? last
        : { top: element.scrollTop, height: element.clientHeight },
    );
  }, []);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      if (frame.current) cancelAnimationFrame(frame.current);
    };
  }, [measure]);

  // One update per frame however many scroll events arrive.
  const onScroll = () => {
    if (frame.current === 0) frame.current = requestAnimationFrame(measure);
  };

  const { first, end } = lineWindow(count, view.top, view.height || UNMEASURED_HEIGHT);
  const lines: ReactNode[] = [];
  for (let index = first; index < end; index += 1) lines.push(renderLine(index));
  return (
    <div
      ref={box}
      className={`code virtual-lines ${className}`}
      role="region"
      aria-label={label}
      // Focusable so the keyboard can scroll it.
      tabIndex={0}
      data-testid={testId}
      data-lines={count}
      onScroll={onScroll}
      onKeyDown={(event) => {
        // Home and End jump at once: the browser's own, animated, can be lost to a re-render midway.
        const element = box.current;
        if (!element || event.target !== element || event.altKey || event.ctrlKey || event.metaKey) return;
        if (event.key !== 'Home' && event.key !== 'End') return;
        event.preventDefault();
        element.scrollTop = event.key === 'Home' ? 0 : element.scrollHeight;
        measure();
      }}
      style={style}
    >
      <div className="virtual-track" style={{ height: count * LINE_HEIGHT }}>
        <div className="virtual-window" style={{ transform: `translateY(${first * LINE_HEIGHT}px)` }}>
          {lines}
        </div>
      </div>
    </div>
  );
}
