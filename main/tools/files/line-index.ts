// Offsets ↔ lines of one text, for patch_file's messages and its diff regions. Lines end at '\n';
// a '\r' before it belongs to the line, which is how CRLF text keeps its bytes.

/** Index of the last of the ascending `sorted` that is at most `value`; -1 when none is. */
export function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = -1;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

export class LineIndex {
  /** Offset where each line starts; line 0 starts at 0. */
  private readonly starts: number[] = [0];
  readonly length: number;

  constructor(text: string) {
    this.length = text.length;
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
      if (index + 1 < text.length) this.starts.push(index + 1);
    }
  }

  /** Lines in the text (a final line without '\n' counts; an empty text has none). */
  get lineCount(): number {
    return this.length === 0 ? 0 : this.starts.length;
  }

  /** 0-based line holding `offset`; the text's end maps past the last line when it ends with '\n'. */
  lineOf(offset: number): number {
    if (offset >= this.length) return this.lineCount;
    return Math.max(0, lastAtOrBefore(this.starts, offset));
  }

  /** Offset where 0-based `line` starts; the text's length for lines past the end. */
  startOf(line: number): number {
    if (line <= 0) return 0;
    return line < this.lineCount ? (this.starts[line] ?? this.length) : this.length;
  }
}

/**
 * Lines of one text found by walking from the last place asked about, without indexing the whole
 * text: a diff's questions about a few regions in order cost what the text up to the last region
 * costs to scan once, and no array of every line start is built. Same answers as LineIndex.
 */
export class LineCursor {
  private readonly text: string;
  /** The line the cursor is on, and the offset where it starts. */
  private line = 0;
  private start = 0;

  constructor(text: string) {
    this.text = text;
  }

  /** 0-based line holding `offset`; the text's end maps past the last line when it ends with '\n'. */
  lineOf(offset: number): number {
    const { length } = this.text;
    if (length === 0) return 0;
    if (offset >= length) {
      this.seekOffset(length - 1);
      return this.line + 1;
    }
    this.seekOffset(offset);
    return this.line;
  }

  /** Offset where 0-based `line` starts; the text's length for lines past the end. */
  startOf(line: number): number {
    if (line <= 0) return 0;
    while (this.line > line) this.back();
    while (this.line < line) if (!this.forward()) return this.text.length;
    return this.start;
  }

  private seekOffset(offset: number): void {
    while (this.start > offset) this.back();
    for (;;) {
      const newline = this.text.indexOf('\n', this.start);
      if (newline === -1 || newline >= offset || !this.forward(newline)) return;
    }
  }

  /** Onto the next line; false on the last line (a final '\n' starts no line). */
  private forward(newline = this.text.indexOf('\n', this.start)): boolean {
    if (newline === -1 || newline + 1 >= this.text.length) return false;
    this.start = newline + 1;
    this.line += 1;
    return true;
  }

  private back(): void {
    this.start = this.start < 2 ? 0 : this.text.lastIndexOf('\n', this.start - 2) + 1;
    this.line -= 1;
  }
}
