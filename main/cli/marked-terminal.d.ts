// marked-terminal ships no types; the one entry point the CLI uses.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';

  type Style = (text: string) => string;
  export interface TerminalRendererOptions {
    code?: Style;
    blockquote?: Style;
    html?: Style;
    heading?: Style;
    firstHeading?: Style;
    hr?: Style;
    listitem?: Style;
    table?: Style;
    paragraph?: Style;
    strong?: Style;
    em?: Style;
    codespan?: Style;
    del?: Style;
    link?: Style;
    href?: Style;
    emoji?: boolean;
    width?: number;
    reflowText?: boolean;
    tab?: number;
  }
  export function markedTerminal(options?: TerminalRendererOptions, highlightOptions?: object): MarkedExtension;
}
