import { terminalStyle } from './terminal-text.ts';
import { TranscriptPrinter } from './transcript-printer.ts';

/** What the printer needs of stdout. */
export interface TerminalOut {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * The transcript as `out` can show it: colour, rendered Markdown and redrawn command output on a
 * terminal (terminalStyle), plain lines elsewhere. The Markdown renderer takes a second or more to
 * load, so it is loaded only when it is used.
 */
export async function transcriptPrinter(
  out: TerminalOut,
  env: Record<string, string | undefined>,
): Promise<TranscriptPrinter> {
  const style = terminalStyle(out.isTTY === true, env);
  const columns = (): number => out.columns || 80;
  const markdown = style.color
    ? (await import('./terminal-markdown.ts')).terminalMarkdown(Math.min(columns(), 100))
    : undefined;
  return new TranscriptPrinter((text) => void out.write(text), { ...style, columns, markdown });
}
