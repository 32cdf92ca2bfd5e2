import type { Replacement } from './patch-edits.ts';

// A patch of a UTF-8 file written as bytes: the file's own bytes between the replacements are
// copied as they are, and only the replacement texts are encoded, instead of encoding the whole
// patched text again (a few edits in a file of megabytes cost what the edits cost, plus one copy).
// The pieces, one after another, are the patched text encoded whole, byte order mark first; they
// are written as they are (one writev), never copied into one buffer.

const HIGH_SURROGATE_FIRST = 0xd800;
const HIGH_SURROGATE_LAST = 0xdbff;

/**
 * `bytes` (valid UTF-8, `bomLength` bytes of byte order mark first, decoded as `original`) with
 * the replacements spliced in, as pieces: slices of `bytes` and the encoded new texts; null when a replacement is not well-formed text or cuts a
 * character in two (the caller then encodes the whole text, which says what cannot be written).
 */
export function spliceUtf8(
  bytes: Buffer,
  bomLength: number,
  original: string,
  replacements: readonly Replacement[],
): Buffer[] | null {
  // Valid UTF-8 takes as many bytes as the text has UTF-16 units only when every character is
  // ASCII: then a text offset is a byte offset.
  const ascii = bytes.length - bomLength === original.length;
  const pieces: Buffer[] = [];
  let textAt = 0;
  let byteAt = bomLength;
  const advance = (to: number): number =>
    (byteAt += ascii ? to - textAt : Buffer.byteLength(original.slice(textAt, to), 'utf8'));
  let copiedTo = 0;
  for (const { start, end, text } of replacements) {
    if (!text.isWellFormed() || splitsPair(original, start) || splitsPair(original, end)) return null;
    pieces.push(bytes.subarray(copiedTo, advance(start)));
    textAt = start;
    pieces.push(Buffer.from(text, 'utf8'));
    copiedTo = advance(end);
    textAt = end;
  }
  pieces.push(bytes.subarray(copiedTo));
  return pieces;
}

/** Whether text offset `at` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  return before >= HIGH_SURROGATE_FIRST && before <= HIGH_SURROGATE_LAST;
}
