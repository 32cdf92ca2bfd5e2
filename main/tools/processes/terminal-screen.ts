import { createRequire } from 'node:module';
import type { Terminal } from '@xterm/headless';

// The screen of a command run in a terminal, as a person would read it: a headless terminal
// emulator (xterm.js without a DOM) takes the raw bytes — cursor moves, colours, redraws — and the
// model reads the resulting rows as plain text instead of a soup of escape codes.

export const TERMINAL_COLS = 120;
export const TERMINAL_ROWS = 32;
/** Rows kept above the screen once they scroll off. */
const SCROLLBACK_ROWS = 1000;

const require = createRequire(import.meta.url);

export class TerminalScreen {
  private readonly terminal: Terminal;
  private parsed: Promise<void> = Promise.resolve();

  constructor(cols = TERMINAL_COLS, rows = TERMINAL_ROWS) {
    // The package is CommonJS; loaded here only, when a command first asks for a terminal.
    const { Terminal: HeadlessTerminal } = require('@xterm/headless') as { Terminal: typeof Terminal };
    this.terminal = new HeadlessTerminal({ cols, rows, scrollback: SCROLLBACK_ROWS, allowProposedApi: true });
  }

  write(chunk: Uint8Array): void {
    this.parsed = new Promise((resolve) => this.terminal.write(chunk, resolve));
  }

  /** Resolves once every byte written so far has been parsed into the screen. */
  settled(): Promise<void> {
    return this.parsed;
  }

  /**
   * The screen's text: the visible rows, and up to `above` rows of what scrolled off before them,
   * trailing blanks and blank rows at the end left out.
   */
  text(above = 0): string {
    const buffer = this.terminal.buffer.active;
    const first = Math.max(0, buffer.viewportY - above);
    const rows: string[] = [];
    for (let row = first; row < buffer.length; row += 1) rows.push(buffer.getLine(row)?.translateToString(true) ?? '');
    while (rows.length > 0 && rows.at(-1) === '') rows.pop();
    return rows.join('\n');
  }

  dispose(): void {
    this.terminal.dispose();
  }
}
