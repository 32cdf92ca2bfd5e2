import type { ToolProgress } from '../../../protocol/tools.ts';
import { ProgressReporter, systemClock, type Clock } from '../progress-reporter.ts';

// An MCP call's progress notes as its card shows them live: `3/5 message` lines, the newest few
// kept with a count of the earlier ones and the bytes of all of them, and reported as exec's output
// is (progress-reporter.ts), at most once per interval. A note costs the same whether it is the
// first or the twenty-thousandth: nothing is joined or measured again until a report is made.

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Lines the card shows live: the newest few, so a long call's card stays short. */
const LIVE_LINES = 6;
/** A kept line is cut to this many characters: the card shows lines, not a server's pages. */
const LINE_CHARS = 1_000;

export class McpProgressLines {
  private readonly kept: string[] = [];
  private count = 0;
  /** UTF-8 bytes of every line so far, joined by newlines. */
  private bytes = 0;
  private readonly reporter: ProgressReporter;

  constructor(send: (progress: ToolProgress) => void, clock: Clock = systemClock) {
    this.reporter = new ProgressReporter(() => this.snapshot(), send, clock);
  }

  /** Keeps a note; the report goes now or at the end of the interval. */
  add({ progress, total, message }: McpProgress): void {
    const line = `${progress}${total !== undefined ? `/${total}` : ''}${message ? ` ${message}` : ''}`;
    this.bytes += Buffer.byteLength(line) + (this.count > 0 ? 1 : 0);
    this.count += 1;
    this.kept.push(line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line);
    if (this.kept.length > LIVE_LINES) this.kept.shift();
    this.reporter.notify();
  }

  /** The call ended: the last report, if a note came since the one before. */
  end(): void {
    this.reporter.flush();
  }

  /** The newest lines, after a line saying how many came before them. */
  snapshot(): ToolProgress {
    const shown = this.kept.join('\n');
    const earlier = this.count - this.kept.length;
    const note = earlier > 0 ? `… ${earlier} earlier ${earlier === 1 ? 'line' : 'lines'}\n` : '';
    return { text: note + shown, cut_bytes: this.bytes - Buffer.byteLength(shown), total_bytes: this.bytes };
  }
}
