import { lastAtOrBefore } from './line-index.ts';
import type { Replacement } from './patch-edits.ts';

// The patched text read where the diff asks, without making it: the original with its
// replacements, each read assembled from the few pieces it covers. A diff of a few edits in a
// file of megabytes then never copies the megabytes into a new string.

/** What a diff reads of a text: a string is one. */
export interface TextReader {
  readonly length: number;
  charCodeAt(index: number): number;
  slice(start: number, end: number): string;
}

export class PatchedText implements TextReader {
  readonly length: number;
  private readonly original: string;
  private readonly replacements: readonly Replacement[];
  /** Where each replacement's text starts in the patched text. */
  private readonly starts: number[] = [];

  /** `replacements` sorted by start and not overlapping, as planEdits gives them. */
  constructor(original: string, replacements: readonly Replacement[]) {
    this.original = original;
    this.replacements = replacements;
    let shift = 0;
    for (const { start, end, text } of replacements) {
      this.starts.push(start + shift);
      shift += text.length - (end - start);
    }
    this.length = original.length + shift;
  }

  charCodeAt(index: number): number {
    return index < 0 || index >= this.length ? Number.NaN : this.slice(index, index + 1).charCodeAt(0);
  }

  /** As String's slice, for offsets from 0 (a negative one is not counted from the end). */
  slice(start: number, end: number): string {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    let out = '';
    // From the last replacement starting at or before `from`: the pieces are its text, then the
    // original up to the next replacement, and so on.
    let index = this.lastStartingBy(from);
    let at = from;
    while (at < to) {
      const replacement = this.replacements[index];
      const textStart = this.starts[index];
      if (replacement && textStart !== undefined && at < textStart + replacement.text.length) {
        out += replacement.text.slice(at - textStart, to - textStart);
        at = Math.min(to, textStart + replacement.text.length);
        continue;
      }
      // In the original's stretch after replacement `index` (or before the first one).
      const shift = replacement && textStart !== undefined ? textStart + replacement.text.length - replacement.end : 0;
      const nextStart = this.starts[index + 1] ?? this.length;
      const stop = Math.min(to, nextStart);
      out += this.original.slice(at - shift, stop - shift);
      at = stop;
      index += 1;
    }
    return out;
  }

  /** The last replacement whose text starts at or before `offset`; -1 when none does. */
  private lastStartingBy(offset: number): number {
    return lastAtOrBefore(this.starts, offset);
  }
}
