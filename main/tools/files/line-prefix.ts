import { READ_LINE_CHARS } from '../../../protocol/tools.ts';

// One line of a read_file page as it streams in: its first bytes, its full length counted as it
// goes, and how it ends. However long the line, only enough to show MAX_LINE_CHARS characters is
// kept, so a minified bundle or a file with no newline costs the memory of a short line.

export const MAX_LINE_CHARS = READ_LINE_CHARS;
/** A character takes at most 4 bytes; the margin covers a line ending and a character cut at the end. */
const KEEP_BYTES = MAX_LINE_CHARS * 4 + 8;
const CR = 0x0d;
const LF = 0x0a;

export class LinePrefix {
  /** Every byte of the line, its ending included. */
  bytes = 0;
  private kept: Uint8Array[] = [];
  private keptBytes = 0;
  /** Characters (code points) begun so far, the ending's included. */
  private chars = 0;
  /** Continuation bytes still expected by the character being read. */
  private expect = 0;
  private last = -1;
  private beforeLast = -1;

  add(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.keptBytes < KEEP_BYTES) {
      const taken = piece.subarray(0, KEEP_BYTES - this.keptBytes);
      this.kept.push(taken);
      this.keptBytes += taken.length;
    }
    this.bytes += piece.length;
    this.countChars(piece);
    this.beforeLast = piece.length > 1 ? (piece[piece.length - 2] ?? -1) : this.last;
    this.last = piece[piece.length - 1] ?? -1;
  }

  /**
   * The line's text with its ending; past MAX_LINE_CHARS characters it is cut and says how many
   * characters the line has, so the card and the model see the same line.
   */
  shown(): string {
    const lf = this.last === LF;
    const cr = lf ? this.beforeLast === CR : this.last === CR;
    const ending = `${cr ? '\r' : ''}${lf ? '\n' : ''}`;
    const complete = this.bytes <= KEEP_BYTES;
    const prefix = Buffer.concat(this.kept);
    const body = complete ? prefix.subarray(0, prefix.length - ending.length) : prefix;
    // ignoreBOM: a U+FEFF starting a line is text (the file's own mark was dropped before);
    // stream: a character cut by the end of the prefix is left out rather than shown as U+FFFD.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body, { stream: !complete });
    const cut = codePointIndex(text, MAX_LINE_CHARS);
    if (cut >= text.length) return text + ending;
    // Invalid bytes may decode to a few more characters than counted; never report fewer than shown.
    const total = Math.max(this.chars - ending.length, MAX_LINE_CHARS + 1);
    return `${text.slice(0, cut)}… (line cut: ${total} characters; ${total - MAX_LINE_CHARS} not shown)${ending}`;
  }

  /**
   * Counts characters the way a UTF-8 decoder yields them: a lead byte starts one, its
   * continuation bytes do not, and a stray continuation byte is one (a replacement character).
   */
  private countChars(piece: Uint8Array): void {
    let { chars, expect } = this;
    for (let index = 0; index < piece.length; index += 1) {
      const byte = piece[index] ?? 0;
      if (expect > 0 && (byte & 0xc0) === 0x80) {
        expect -= 1;
        continue;
      }
      chars += 1;
      expect = byte >= 0xf0 && byte < 0xf5 ? 3 : byte >= 0xe0 && byte < 0xf0 ? 2 : byte >= 0xc2 && byte < 0xe0 ? 1 : 0;
    }
    this.chars = chars;
    this.expect = expect;
  }
}

/** The UTF-16 index just after `count` code points of `text` (its length when it has fewer). */
function codePointIndex(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen += 1) {
    const code = text.charCodeAt(index);
    const low = text.charCodeAt(index + 1);
    index += code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return index;
}
