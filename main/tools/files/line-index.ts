// Offsets ↔ lines of one text, for patch_file's messages and its diff regions. Lines end at '\n';
// a '\r' before it belongs to the line, which is how CRLF text keeps its bytes.

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
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Offset where 0-based `line` starts; the text's length for lines past the end. */
  startOf(line: number): number {
    if (line <= 0) return 0;
    return line < this.lineCount ? (this.starts[line] ?? this.length) : this.length;
  }
}
