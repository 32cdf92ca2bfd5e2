// Streamed Markdown for the terminal renderer (terminal-markdown.ts, loaded only when colour is on).

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
