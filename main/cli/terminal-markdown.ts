import { Chalk } from 'chalk';
import { Marked, type Tokens } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { terminalSafe } from './terminal-text.ts';

// The model's Markdown for a terminal (marked + marked-terminal), used only when colour is on.
// The source is made terminal-safe first, so the only escape sequences in the result are the ones
// the renderer adds; links print as `text (url)`, never as OSC 8 hyperlinks whose target hides
// behind other text; and a last pass keeps only colour (SGR) sequences, showing anything else as
// visible text.

const SGR = /\u001b\[[0-9;]*m/g;

export function terminalMarkdown(width: number): (source: string) => string {
  const style = new Chalk({ level: 1 });
  const marked = new Marked(
    markedTerminal({
      code: style.yellow,
      blockquote: style.gray.italic,
      html: style.gray,
      heading: style.green.bold,
      firstHeading: style.magenta.bold,
      hr: style.reset,
      listitem: style.reset,
      table: style.reset,
      paragraph: style.reset,
      strong: style.bold,
      em: style.italic,
      codespan: style.yellow,
      del: style.dim.strikethrough,
      link: style.blue,
      href: style.blue.underline,
      emoji: false,
      width,
    }),
    {
      renderer: {
        link(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Link): string {
          const text = this.parser.parseInline(token.tokens);
          const href = style.blue.underline(terminalSafe(token.href));
          return text && text !== token.href ? `${text} (${href})` : href;
        },
      },
    },
  );
  return (source) => onlyColour(marked.parse(terminalSafe(source), { async: false }));
}

/** The renderer's colour sequences kept; any other control character made visible. */
function onlyColour(rendered: string): string {
  let out = '';
  let last = 0;
  for (const match of rendered.matchAll(SGR)) {
    out += terminalSafe(rendered.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + terminalSafe(rendered.slice(last));
}
