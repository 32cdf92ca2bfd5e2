import { memo, type CSSProperties, type ReactNode } from 'react';
import { ansiRuns, hasAnsi, type AnsiStyle } from './ansi.ts';
import { revealPieces } from './safe-text.ts';

// Tool and model text on screen: every invisible, reordering or control character is a visible
// mark (see safe-text.ts), and with `ansi` a command's SGR colours show as colours.

function pieces(text: string): ReactNode[] {
  return revealPieces(text).map((piece, index) =>
    'text' in piece ? (
      piece.text
    ) : (
      <span key={index} className="char-mark" title={piece.title} data-testid="char-mark">
        {piece.mark}
      </span>
    ),
  );
}

function classOf(style: AnsiStyle): string {
  return [
    typeof style.fg === 'number' ? `ansi-fg-${style.fg}` : '',
    style.bold ? 'ansi-bold' : '',
    style.dim ? 'ansi-dim' : '',
    style.italic ? 'ansi-italic' : '',
    style.underline ? 'ansi-underline' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export const SafeText = memo(function SafeText({ text, ansi = false }: { text: string; ansi?: boolean }) {
  if (!ansi || !hasAnsi(text)) return <>{pieces(text)}</>;
  return (
    <>
      {ansiRuns(text).map((run, index) => {
        const className = classOf(run.style);
        const colour: CSSProperties | undefined =
          typeof run.style.fg === 'string' ? { color: run.style.fg } : undefined;
        return className || colour ? (
          <span key={index} className={className || undefined} style={colour}>
            {pieces(run.text)}
          </span>
        ) : (
          <span key={index}>{pieces(run.text)}</span>
        );
      })}
    </>
  );
});
