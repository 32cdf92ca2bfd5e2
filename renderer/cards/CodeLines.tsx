import { useState, type CSSProperties } from 'react';
import { useHighlight } from './use-highlight.ts';
import { SafeText } from '../text/SafeText.tsx';
import { ShowFewerTop } from './parts.tsx';

// Numbered lines of code: plain text at once, highlighted when shiki has loaded. Long pages show
// their first lines until the person asks for the rest, so a 2000-line read stays one calm card.

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
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

export function CodeLines({
  text,
  start = 1,
  language = null,
  collapsedLines = 40,
  label = 'File content',
  testId = 'code-lines',
}: CodeLinesProps) {
  const [expanded, setExpanded] = useState(false);
  const lines = splitLines(text);
  const hidden = expanded ? 0 : Math.max(0, lines.length - collapsedLines);
  const visible = hidden > 0 ? lines.slice(0, collapsedLines) : lines;
  const tokens = useHighlight(visible.join('\n'), language);
  const width = String(start + lines.length - 1).length;

  return (
    <div className="code-block">
      {expanded ? <ShowFewerTop onFold={() => setExpanded(false)} /> : null}
      <div
        className="code"
        role="region"
        aria-label={label}
        data-testid={testId}
        style={{ '--line-number-width': `${width}ch` } as CSSProperties}
      >
        {visible.map((line, index) => (
          <div className="code-line" key={index} data-testid="code-line">
            <span className="line-number">{start + index}</span>
            <span className="line-text">
              {tokens?.[index] ? (
                tokens[index].map((token, i) => (
                  <span key={i} style={token.htmlStyle as CSSProperties | undefined}>
                    <SafeText text={token.content} />
                  </span>
                ))
              ) : (
                <SafeText text={line} />
              )}
            </span>
          </div>
        ))}
      </div>
      {hidden > 0 || expanded ? (
        <button type="button" className="link-button" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
          {expanded ? 'Show fewer lines' : `Show all ${lines.length} lines (${hidden} more)`}
        </button>
      ) : null}
    </div>
  );
}
