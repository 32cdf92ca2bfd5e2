import { useEffect, useState, type CSSProperties, type RefObject } from 'react';
import { SafeText } from '../text/SafeText.tsx';
import type { DiffRow, SplitRow } from './diff-model.ts';

// The side-by-side diff: old lines on the left, new on the right, each with its own line number;
// offered only while the card is wide enough for two columns of code.

/** Cards narrower than this keep the unified diff: two columns of code would not fit. */
export const SPLIT_MIN_WIDTH = 760;

/** Whether the element is at least `min` pixels wide, followed as it resizes. */
export function useWideEnough(ref: RefObject<HTMLElement | null>, min: number): boolean {
  const [wide, setWide] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWide(element.clientWidth >= min));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, min]);
  return wide;
}

/** A diff line's text, the words it changed marked. */
export function RowText({ row }: { row: DiffRow }) {
  if (!row.segments) return row.text === '' ? ' ' : <SafeText text={row.text} />;
  return (
    <>
      {row.segments.map((segment, index) =>
        segment.changed ? (
          <mark key={index} className="diff-word" data-testid="diff-word">
            <SafeText text={segment.text} />
          </mark>
        ) : (
          <SafeText key={index} text={segment.text} />
        ),
      )}
    </>
  );
}

function Half({ row, side }: { row: DiffRow | null; side: 'old' | 'new' }) {
  if (!row) return <div className="diff-half diff-empty" data-kind="empty" />;
  const number = side === 'old' ? row.oldNo : row.newNo;
  return (
    <div className={`diff-half diff-${row.kind}`} data-kind={row.kind}>
      <span className="diff-no" aria-hidden="true">
        {number ?? ''}
      </span>
      <span className="diff-text">
        <RowText row={row} />
      </span>
    </div>
  );
}

export function DiffSplit({ rows, width }: { rows: readonly SplitRow[]; width: number }) {
  return (
    <div
      className="code diff diff-split"
      role="region"
      aria-label="Diff, side by side"
      data-testid="patch-diff-split"
      style={{ '--diff-no': `${width}ch` } as CSSProperties}
    >
      {rows.map((split, index) =>
        split.kind === 'full' ? (
          <div key={index} className={`diff-line diff-${split.row.kind}`} data-kind={split.row.kind}>
            {split.row.kind === 'gap' ? '⋯ ' : null}
            <SafeText text={split.row.text} />
          </div>
        ) : (
          <div key={index} className="diff-pair" data-testid="diff-pair">
            <Half row={split.left} side="old" />
            <Half row={split.right} side="new" />
          </div>
        ),
      )}
    </div>
  );
}
