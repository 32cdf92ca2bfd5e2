import { replaceInvisible } from '../text/safe-text.ts';

// Display escaping for text that came out of an XML parser. Entity and character references
// expand during parsing, so `&#x1b;` or `&#x202e;` in the source become real control or bidi
// characters that escaping the raw source never saw. Everything invisible or able to reorder or
// restyle what surrounds it is shown as a character reference instead.

// Which characters count is safe-text.ts's one definition, shared with every card.

/** The text with every invisible or reordering character replaced by `&#x…;`. */
export function escapeForDisplay(text: string): string {
  return replaceInvisible(text, (character) => `&#x${character.codePointAt(0)!.toString(16)};`);
}

/** As escapeForDisplay, for text shown on one line (attribute values): tab and newline escaped too. */
export function escapeInline(text: string): string {
  return escapeForDisplay(text).replace(/[\t\n]/g, (character) => `&#x${character.charCodeAt(0).toString(16)};`);
}
