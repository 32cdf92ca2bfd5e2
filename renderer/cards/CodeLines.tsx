import { useLayoutEffect, useMemo, useRef, type CSSProperties } from 'react';
import type { HighlightedLines } from './highlight.ts';
import { tokenLook } from './token-classes.ts';
import { useHighlight } from './use-highlight.ts';
import { SafeText } from '../text/SafeText.tsx';
import { revealPieces } from '../text/safe-text.ts';
import { canPaintTokens, paintTokens } from './token-highlights.ts';
import { CopyLines, ShowFewerTop } from './parts.tsx';
import { expansionKey, useRememberedExpansion } from './remembered-expansion.ts';
import { useScrollFocus } from './use-scroll-focus.ts';
import { VirtualLines } from './VirtualLines.tsx';

// Numbered lines of code: plain text at once, highlighted when shiki has loaded. Long pages show
// their first lines until the person asks for the rest; then the lines scroll inside the card, only
// those in view in the DOM, so even a 5 000-line read stays one calm card of bounded height.

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines a block shows before "Show all". */
export const COLLAPSED_LINES = 40;

/** The text a block of `text` highlights while it shows its first `collapsedLines` lines. */
export function foldedCode(text: string, collapsedLines = COLLAPSED_LINES): string {
  return splitLines(text).slice(0, collapsedLines).join('\n');
}

export interface CodeLinesProps {
  text: string;
  /** Number of the first line. */
  start?: number;
  language?: string | null;
  /** Lines shown before "Show all". */
  collapsedLines?: number;
  label?: string;
  testId?: string;
}

/** Whether `line` shows as one text node that is exactly its tokens' text, so ranges can colour it. */
function paintable(line: string, tokens: HighlightedLines[number] | undefined): tokens is HighlightedLines[number] {
  if (!tokens || !canPaintTokens() || line === '') return false;
  const pieces = revealPieces(line);
  return (
    pieces.length === 1 &&
    'text' in pieces[0]! &&
    tokens.reduce((length, token) => length + token.content.length, 0) === line.length
  );
}

export function CodeLine({
  number,
  line,
  tokens,
  marked = false,
}: {
  number: number;
  line: string;
  tokens: HighlightedLines[number] | undefined;
  /** The line a file link pointed at. */
  marked?: boolean;
}) {
  const text = useRef<HTMLSpanElement>(null);
  const ranges = paintable(line, tokens) ? tokens : null;
  // Before the frame is drawn, so a line whose tokens are known never shows plain first.
  useLayoutEffect(() => {
    const node = text.current?.firstChild;
    if (!ranges || !(node instanceof Text)) return undefined;
    return paintTokens(node, ranges);
  }, [ranges, line]);
  return (
    <div
      className={marked ? 'code-line is-marked' : 'code-line'}
      data-testid="code-line"
      {...(marked ? { 'data-marked': true, 'aria-current': 'location' as const } : {})}
    >
      <span className="line-number">{number}</span>
      <span ref={text} className="line-text">
        {tokens && !ranges ? (
          tokens.map((token, i) => (
            <span key={i} {...tokenLook(token)}>
              <SafeText text={token.content} />
            </span>
          ))
        ) : (
          <SafeText text={line} />
        )}
      </span>
    </div>
  );
}

export function CodeLines({
  text,
  start = 1,
  language = null,
  collapsedLines = COLLAPSED_LINES,
  label = 'File content',
  testId = 'code-lines',
}: CodeLinesProps) {
  const [expanded, setExpanded] = useRememberedExpansion(expansionKey(`lines:${start}`, text));
  const lines = useMemo(() => splitLines(text), [text]);
  const hidden = expanded ? 0 : Math.max(0, lines.length - collapsedLines);
  // Kept between renders: an expanded card renders again on every scrolled frame.
  const visible = useMemo(() => (hidden > 0 ? lines.slice(0, collapsedLines) : lines), [lines, hidden, collapsedLines]);
  const tokens = useHighlight(
    useMemo(() => visible.join('\n'), [visible]),
    language,
  );
  const width = String(start + lines.length - 1).length;
  const style = { '--line-number-width': `${width}ch` } as CSSProperties;
  const scroll = useScrollFocus(visible);
  const renderLine = (index: number) => (
    <CodeLine key={index} number={start + index} line={visible[index] ?? ''} tokens={tokens?.[index]} />
  );

  return (
    <div className="code-block">
      {expanded ? (
        <div className="code-tools">
          <ShowFewerTop onFold={() => setExpanded(false)} />
          <CopyLines text={text} count={lines.length} />
        </div>
      ) : null}
      {expanded ? (
        <VirtualLines count={visible.length} renderLine={renderLine} label={label} testId={testId} style={style} />
      ) : (
        <div
          ref={scroll.ref}
          className="code"
          role="region"
          aria-label={label}
          data-testid={testId}
          style={style}
          tabIndex={scroll.tabIndex}
        >
          {visible.map((_line, index) => renderLine(index))}
        </div>
      )}
      {hidden > 0 || expanded ? (
        <button type="button" className="link-button" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
          {expanded ? 'Show fewer lines' : `Show all ${lines.length} lines (${hidden} more)`}
        </button>
      ) : null}
    </div>
  );
}
