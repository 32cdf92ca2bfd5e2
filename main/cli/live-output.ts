import type { ToolProgress } from '../../protocol/tools.ts';
import { terminalSafe, toned } from './terminal-text.ts';

// A running command's output as it comes. On a terminal: its last few lines, redrawn in place
// under the transcript (at most every REDRAW_MS) and erased when the call ends or anything else is
// printed; once it ended, its first and last lines stay, with how many were left out between.
// Otherwise: each complete new line, appended once. Either way under a `⋯ label` line saying which
// call it is. Every line is made terminal-safe.

export const LIVE_LINES = 6;
/** Lines of a finished command's output kept from its start. */
export const KEPT_FIRST_LINES = 3;
const REDRAW_MS = 80;
const PREFIX = '  │ ';

export interface LiveOutputOptions {
  write: (text: string) => void;
  /** Redraw in place (stdout is a terminal); otherwise append lines. */
  live: boolean;
  color: boolean;
  /** The terminal's width, so a drawn line never wraps. */
  columns: () => number;
}

export class LiveOutput {
  private readonly options: LiveOutputOptions;
  /** Lines of the region currently on screen. */
  private drawn = 0;
  private tail: { callId: string; label: string; text: string } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastDraw = 0;
  /** Appending: bytes of each call's output already printed, and its unfinished last line. */
  private readonly seen = new Map<string, { bytes: number; partial: string; headed: boolean }>();
  /** Redrawing: each running call's first complete lines, kept once the region is erased. */
  private readonly first = new Map<string, string[]>();
  /** Redrawing: lines kept at the region's foot (the running background processes). */
  private footer: string[] = [];

  constructor(options: LiveOutputOptions) {
    this.options = options;
  }

  /** The output so far of a running call (`label`: its name and arguments); `before` ends an open line first. */
  progress(callId: string, label: string, progress: ToolProgress, before: () => void): void {
    if (this.options.live) {
      // While nothing was cut, the window holds the output from its first byte.
      if (progress.cut_bytes === 0 && (this.first.get(callId)?.length ?? 0) < KEPT_FIRST_LINES)
        this.first.set(callId, progress.text.split('\n').slice(0, -1).slice(0, KEPT_FIRST_LINES));
      this.tail = { callId, label, text: progress.text };
      const wait = REDRAW_MS - (Date.now() - this.lastDraw);
      if (wait <= 0) this.draw(before);
      else this.timer ??= setTimeout(() => this.draw(before), wait);
      return;
    }
    const seen = this.seen.get(callId) ?? { bytes: 0, partial: '', headed: false };
    const bytes = Buffer.from(progress.text);
    // Only the output at the text's end is new: an MCP call's text begins with a note of the earlier lines.
    const output = progress.total_bytes - progress.cut_bytes;
    const fresh = Math.min(bytes.length, output, Math.max(0, progress.total_bytes - seen.bytes));
    seen.bytes = progress.total_bytes;
    const text = seen.partial + bytes.subarray(bytes.length - fresh).toString();
    const lines = text.split('\n');
    seen.partial = lines.pop() ?? '';
    this.seen.set(callId, seen);
    if (lines.length > 0) {
      before();
      const header = seen.headed ? '' : this.header(label, Infinity);
      seen.headed = true;
      this.options.write(header + lines.map((line) => this.format(line, Infinity)).join(''));
    }
  }

  /**
   * A call ended: its region erased, or its unfinished last line printed. Says whether its output
   * was printed for good (appended), and its first lines as they were drawn.
   */
  done(callId: string, before: () => void): { printed: boolean; firstLines: string[] } {
    const firstLines = this.first.get(callId) ?? [];
    this.first.delete(callId);
    if (this.tail?.callId === callId) {
      this.clear();
      this.tail = null;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
    }
    const seen = this.seen.get(callId);
    this.seen.delete(callId);
    if (seen && seen.partial.length > 0) {
      before();
      this.options.write(this.format(seen.partial, Infinity));
    }
    return { printed: seen !== undefined && seen.bytes > 0, firstLines };
  }

  /** What stays of a finished command's output: its first and last lines, and a count of those between. */
  keep(output: FinishedOutput, firstLines: readonly string[], lastCount: number, before: () => void): void {
    const { head, skipped, tail } = keptLines(output, firstLines, lastCount);
    if (head.length + tail.length === 0) return;
    before();
    const width = this.options.live ? Math.max(20, this.options.columns() - PREFIX.length - 1) : Infinity;
    const between = skipped > 0 ? [`… ${skipped} ${skipped === 1 ? 'line' : 'lines'} not shown`] : [];
    this.options.write([...head, ...between, ...tail].map((line) => this.format(line, width)).join(''));
  }

  /**
   * On a terminal: `lines` at the foot of the region, redrawn in place with it (each update
   * replaces them; none: they go). Elsewhere nothing: the starts and ends have lines of their own.
   */
  setFooter(lines: readonly string[], before: () => void): void {
    if (!this.options.live) return;
    this.footer = [...lines];
    if (this.timer) clearTimeout(this.timer);
    this.draw(before);
  }

  /** The turn ended: nothing more is drawn, and the region goes. */
  end(): void {
    this.footer = [];
    this.first.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.tail = null;
    this.clear();
  }

  /** Erases the region before something else is printed; the next progress draws it again. */
  clear(): void {
    if (this.drawn === 0) return;
    this.options.write(`\u001b[${this.drawn}F\u001b[J`);
    this.drawn = 0;
  }

  private draw(before: () => void): void {
    this.timer = null;
    this.lastDraw = Date.now();
    const lines = this.tail ? this.tail.text.replace(/\n$/, '').split('\n').slice(-LIVE_LINES) : [];
    const tail = lines.length === 1 && lines[0] === '' ? [] : lines;
    if (tail.length === 0 && this.footer.length === 0) return this.clear();
    this.clear();
    before();
    const width = Math.max(20, this.options.columns() - PREFIX.length - 1);
    const header = this.tail && tail.length > 0 ? this.header(this.tail.label, width + PREFIX.length) : '';
    const foot = this.footer.map((line) => this.line(line, width + PREFIX.length));
    this.options.write(header + tail.map((line) => this.format(line, width)).join('') + foot.join(''));
    this.drawn = (header ? 1 : 0) + tail.length + foot.length;
  }

  private header(label: string, width: number): string {
    return this.line(`⋯ ${label}`, width);
  }

  /** One muted line, flattened and cut to `width`. */
  private line(text: string, width: number): string {
    const flat = terminalSafe(text.replace(/\s*\n\s*/g, ' '));
    const cut = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
    return `${toned(cut, 'muted', this.options.color)}\n`;
  }

  private format(line: string, width: number): string {
    // A progress bar's carriage returns: the line as a terminal would leave it, its last rewrite.
    const last =
      line
        .split('\r')
        .filter((part) => part.length > 0)
        .pop() ?? '';
    const flat = terminalSafe(last.replace(/\t/g, '  '));
    const cut = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
    return `${toned(PREFIX + cut, 'muted', this.options.color)}\n`;
  }
}

/** A finished command's output as its echo has it: the end of it, and how much there was. */
export interface FinishedOutput {
  /** The output, or only its end when `output_cut`. */
  output: string;
  output_cut: boolean;
  /** Lines of the complete output. */
  output_lines: number;
}

/** The first lines (from the output when it is whole, else as they were seen), the last ones, and how many lie between. */
export function keptLines(
  finished: FinishedOutput,
  firstLines: readonly string[],
  lastCount: number,
): { head: string[]; skipped: number; tail: string[] } {
  const known = finished.output.length === 0 ? [] : finished.output.replace(/\n$/, '').split('\n');
  const total = Math.max(finished.output_lines, known.length);
  const whole = !finished.output_cut && known.length === total;
  if (whole && total <= KEPT_FIRST_LINES + lastCount + 1) return { head: known, skipped: 0, tail: [] };
  const head = (whole ? known : firstLines).slice(0, KEPT_FIRST_LINES);
  // The last lines never repeat one of the first.
  const count = Math.max(0, Math.min(lastCount, total - head.length));
  const tail = count === 0 ? [] : known.slice(-count);
  return { head, skipped: Math.max(0, total - head.length - tail.length), tail };
}
