// Text from tools and models, made safe to look at. Characters that are invisible, or that reorder
// or restyle what surrounds them, become visible marks: a command's output cannot hide an ESC, a
// NUL or a bell, "txt\u202Eexe.txt" cannot display as "txtexe.txt" backwards, and a zero-width
// space cannot split a word unseen. One definition, used by every card, the transcript and the XML
// tree's escaping.
//
// Marked: controls (C0, DEL, C1) but tab and newline (and the CR of a CRLF); format characters
// (bidi embeddings, overrides, isolates and marks, zero-width space, word joiner, BOM, soft hyphen,
// tag characters…), except a zero-width joiner or non-joiner between two non-ASCII characters,
// where emoji sequences and scripts such as Devanagari or Persian need them; lone surrogates; line
// and paragraph separators; the blank Hangul fillers; the variation selectors of the supplement.
const INVISIBLE = /[\p{Cc}--[\t\n]]|\p{Cf}|[\p{Cs}\u2028\u2029\u115F\u1160\u3164\uFFA0\u{E0100}-\u{E01EF}]/gv;

const INVISIBLE_ONE = new RegExp(`^(?:${INVISIBLE.source})$`, 'v');
const JOINERS = new Set([0x200c, 0x200d]);

/** The C0 controls' standard abbreviations (the control pictures ␛ ␀ are missing from many fonts). */
const C0 = [
  'NUL',
  'SOH',
  'STX',
  'ETX',
  'EOT',
  'ENQ',
  'ACK',
  'BEL',
  'BS',
  'HT',
  'LF',
  'VT',
  'FF',
  'CR',
  'SO',
  'SI',
  'DLE',
  'DC1',
  'DC2',
  'DC3',
  'DC4',
  'NAK',
  'SYN',
  'ETB',
  'CAN',
  'EM',
  'SUB',
  'ESC',
  'FS',
  'GS',
  'RS',
  'US',
];

const NAMES: Record<number, [short: string, long: string]> = {
  0x00ad: ['SHY', 'soft hyphen'],
  0x061c: ['ALM', 'Arabic letter mark (bidi)'],
  0x180e: ['MVS', 'Mongolian vowel separator'],
  0x200b: ['ZWSP', 'zero-width space'],
  0x200c: ['ZWNJ', 'zero-width non-joiner'],
  0x200d: ['ZWJ', 'zero-width joiner'],
  0x200e: ['LRM', 'left-to-right mark (bidi)'],
  0x200f: ['RLM', 'right-to-left mark (bidi)'],
  0x202a: ['LRE', 'left-to-right embedding (bidi)'],
  0x202b: ['RLE', 'right-to-left embedding (bidi)'],
  0x202c: ['PDF', 'pop directional formatting (bidi)'],
  0x202d: ['LRO', 'left-to-right override (bidi)'],
  0x202e: ['RLO', 'right-to-left override (bidi)'],
  0x2028: ['LSEP', 'line separator'],
  0x2029: ['PSEP', 'paragraph separator'],
  0x2060: ['WJ', 'word joiner'],
  0x2066: ['LRI', 'left-to-right isolate (bidi)'],
  0x2067: ['RLI', 'right-to-left isolate (bidi)'],
  0x2068: ['FSI', 'first strong isolate (bidi)'],
  0x2069: ['PDI', 'pop directional isolate (bidi)'],
  0xfeff: ['BOM', 'zero-width no-break space (byte order mark)'],
};

/** How one marked character is shown and explained. */
export interface Mark {
  character: string;
  /** A short name in ⟨…⟩: ⟨ESC⟩, ⟨NUL⟩, ⟨RLO⟩, ⟨ZWSP⟩, ⟨U+0085⟩. */
  mark: string;
  /** Its code point and what it is. */
  title: string;
}

/** A run of ordinary text, or one marked character. */
export type TextPiece = { text: string } | Readonly<Mark>;

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Marks are made once per character: a command's output repeats the same few (read-only). */
const made = new Map<string, Readonly<Mark>>();

export function markFor(character: string): Readonly<Mark> {
  let mark = made.get(character);
  if (!mark) {
    mark = { character, ...describe(character.codePointAt(0)!) };
    made.set(character, mark);
  }
  return mark;
}

function describe(code: number): { mark: string; title: string } {
  if (code < 0x20) return { mark: `⟨${C0[code]}⟩`, title: `${hex(code)} control character` };
  if (code === 0x7f) return { mark: '⟨DEL⟩', title: `${hex(code)} control character (delete)` };
  if (code >= 0xe0000 && code <= 0xe007f) {
    const tagged = code >= 0xe0020 && code <= 0xe007e ? ` ${String.fromCodePoint(code - 0xe0000)}` : '';
    return { mark: `⟨TAG${tagged}⟩`, title: `${hex(code)} invisible tag character` };
  }
  const named = NAMES[code];
  if (named) return { mark: `⟨${named[0]}⟩`, title: `${hex(code)} ${named[1]}` };
  if (code >= 0x80 && code <= 0x9f) return { mark: `⟨${hex(code)}⟩`, title: `${hex(code)} control character` };
  return { mark: `⟨${hex(code)}⟩`, title: `${hex(code)} invisible character` };
}

/** Whether the character at `index` (found by INVISIBLE) stays as it is. */
function kept(text: string, index: number, character: string): boolean {
  if (character === '\r') return text[index + 1] === '\n';
  if (!JOINERS.has(character.codePointAt(0)!)) return false;
  const before = text.codePointAt(index - 1 >= 0 && /[\udc00-\udfff]/.test(text[index - 1]!) ? index - 2 : index - 1);
  const after = text.codePointAt(index + 1);
  const shaping = (code: number | undefined) =>
    code !== undefined && code > 0x7f && !INVISIBLE_ONE.test(String.fromCodePoint(code));
  return shaping(before) && shaping(after);
}

/** The text cut into ordinary runs and marked characters, in order. */
export function revealPieces(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  // exec on the one shared expression: matchAll would copy it (and its Unicode sets) per call.
  INVISIBLE.lastIndex = 0;
  for (let found = INVISIBLE.exec(text); found !== null; found = INVISIBLE.exec(text)) {
    const character = found[0];
    if (kept(text, found.index, character)) continue;
    if (found.index > from) pieces.push({ text: text.slice(from, found.index) });
    pieces.push(markFor(character));
    from = found.index + character.length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from) });
  return pieces;
}

/** The text with each marked character replaced by its mark: for titles, labels and one-line places. */
export function revealText(text: string): string {
  return revealPieces(text)
    .map((piece) => ('text' in piece ? piece.text : piece.mark))
    .join('');
}

/** Replaces each character a person could not see with `replace(character)`; the rest stays. */
export function replaceInvisible(text: string, replace: (character: string) => string): string {
  return revealPieces(text)
    .map((piece) => ('text' in piece ? piece.text : replace(piece.character)))
    .join('');
}
