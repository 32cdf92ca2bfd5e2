// Display escaping for text that came out of an XML parser. Entity and character references
// expand during parsing, so `&#x1b;` or `&#x202e;` in the source become real control or bidi
// characters that escaping the raw source never saw. Everything invisible or able to reorder or
// restyle what surrounds it is shown as a character reference instead.

// - controls (C0, DEL, C1) except tab and newline;
// - format characters (bidi embeddings, overrides, isolates and marks, zero-width space, word
//   joiner, BOM, tag characters…) except the zero-width joiners that shape emoji and scripts;
// - lone surrogates, line and paragraph separators, and the blank Hangul fillers.
const INVISIBLE = /[\p{Cc}--[\t\n]]|[\p{Cf}--[\u200C\u200D]]|[\p{Cs}\u2028\u2029\u115F\u1160\u3164\uFFA0]/gv;

/** The text with every invisible or reordering character replaced by `&#x…;`. */
export function escapeForDisplay(text: string): string {
  return text.replace(INVISIBLE, (character) => `&#x${character.codePointAt(0)!.toString(16)};`);
}

/** As escapeForDisplay, for text shown on one line (attribute values): tab and newline escaped too. */
export function escapeInline(text: string): string {
  return escapeForDisplay(text).replace(/[\t\n]/g, (character) => `&#x${character.charCodeAt(0).toString(16)};`);
}
