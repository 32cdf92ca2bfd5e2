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

/**
 * Streamed Markdown rendered a block at a time: text is held until a blank line outside a code
 * fence closes its block, so a paragraph, list or fenced code block is rendered whole.
 */
export class MarkdownStream {
  private held = '';
  private blocks = 0;
  private readonly render: (source: string) => string;

  constructor(render: (source: string) => string) {
    this.render = render;
  }

  push(piece: string): string {
    this.held += piece;
    const cut = lastBlockEnd(this.held);
    if (cut === 0) return '';
    const done = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return this.emit(done);
  }

  end(): string {
    const rest = this.held;
    this.held = '';
    const out = rest.trim().length > 0 ? this.emit(rest) : '';
    this.blocks = 0;
    return out;
  }

  private emit(source: string): string {
    const rendered = this.render(source).replace(/\n+$/, '');
    if (rendered.trim().length === 0) return '';
    const gap = this.blocks > 0 ? '\n' : '';
    this.blocks += 1;
    return `${gap}${rendered}\n`;
  }
}

/** Where the last complete block ends: after a blank line outside a fence; 0 when none has. */
function lastBlockEnd(text: string): number {
  let fence: string | null = null;
  let cut = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end < 0) return cut;
    const line = text.slice(start, end);
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && fence === null) fence = marker[0]!;
    else if (marker && fence !== null && marker[0] === fence) fence = null;
    else if (fence === null && line.trim().length === 0) cut = end + 1;
    start = end + 1;
  }
}
