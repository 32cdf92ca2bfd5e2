import { useEffect, useState, type CSSProperties, type RefObject } from 'react';
import { SafeText } from '../text/SafeText.tsx';
import { overlay, type DiffRow, type SplitRow } from './diff-model.ts';
import { GapText } from './DiffFolds.tsx';

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

/** Syntax tokens per diff row, when the highlighter has them. */
export type RowColours = ReadonlyMap<DiffRow, ReadonlyArray<{ content: string; htmlStyle?: unknown }>>;

/** A diff line's text: in its syntax colours when known, the words it changed marked. */
export function RowText({ row, colours }: { row: DiffRow; colours?: RowColours | undefined }) {
  const tokens = colours?.get(row)?.map((token) => ({ content: token.content, style: token.htmlStyle }));
  if (!row.segments && !tokens) return row.text === '' ? ' ' : <SafeText text={row.text} />;
  const pieces = overlay(tokens ?? [{ content: row.text }], row.segments ?? [{ text: row.text, changed: false }]);
  return (
    <>
      {pieces.map((piece, index) => {
        const text = <SafeText text={piece.text} />;
        const style = piece.style as CSSProperties | undefined;
        return piece.changed ? (
          <mark key={index} className="diff-word" data-testid="diff-word" style={style}>
            {text}
          </mark>
        ) : (
          <span key={index} style={style}>
            {text}
          </span>
        );
      })}
    </>
  );
}

function Half({ row, side, colours }: { row: DiffRow | null; side: 'old' | 'new'; colours?: RowColours | undefined }) {
  if (!row) return <div className="diff-half diff-empty" data-kind="empty" />;
  const number = side === 'old' ? row.oldNo : row.newNo;
  return (
    <div className={`diff-half diff-${row.kind}`} data-kind={row.kind}>
      <span className="diff-no" aria-hidden="true">
        {number ?? ''}
      </span>
      <span className="diff-text">
        <RowText row={row} colours={colours} />
      </span>
    </div>
  );
}

/** One row of the side-by-side diff: a full-width row, or the old line beside the new one. */
export function SplitLine({ split, colours }: { split: SplitRow; colours?: RowColours | undefined }) {
  return split.kind === 'full' ? (
    <div className={`diff-line diff-${split.row.kind}`} data-kind={split.row.kind}>
      {split.row.kind === 'gap' ? <GapText row={split.row} /> : <SafeText text={split.row.text} />}
    </div>
  ) : (
    <div className="diff-pair" data-testid="diff-pair">
      <Half row={split.left} side="old" colours={colours} />
      <Half row={split.right} side="new" colours={colours} />
    </div>
  );
}

export function DiffSplit({
  rows,
  width,
  colours,
}: {
  rows: readonly SplitRow[];
  width: number;
  colours?: RowColours | undefined;
}) {
  return (
    <div
      className="code diff diff-split"
      role="region"
      aria-label="Diff, side by side"
      data-testid="patch-diff-split"
      style={{ '--diff-no': `${width}ch` } as CSSProperties}
    >
      {rows.map((split, index) => (
        <SplitLine key={index} split={split} colours={colours} />
      ))}
    </div>
  );
}
