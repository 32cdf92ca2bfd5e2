// The tokens of one text, in work that grows with its length by a small share and stops growing
// past a limit.
//
// A byte-pair tokenizer splits text into pre-tokens (a word with its leading space, a run of digits,
// of punctuation, of whitespace) and merges each one's bytes in time quadratic in its length. Text
// without spaces (base64, minified data) can hold pre-tokens thousands of characters long (the runs
// of `A` in an image's base64), so counting it whole costs seconds per 100 KB. A text therefore
// reaches the tokenizer in pieces: cut before a space that follows a non-space — where the
// tokenizer's own split cuts, so the count is unchanged — and a run without such a space is cut
// every `MAX_RUN` characters, a token or so more at each cut.
//
// A text past `EXACT_LIMIT` characters is counted from windows spread evenly over it — about an
// eighth of it, and never more than `MAX_WINDOWS` of them — and the whole by their tokens per UTF-8
// byte: the ratio of that very text, whether prose, code or base64. Tool results are most of a long
// session's text and each is counted as it arrives: counted whole, a session of 4 000 file reads
// spent seconds in the tokenizer; from windows, an eighth of that, each text within a few percent
// and their sum within about one.

/** The tokenizer's count of one piece of text. */
export type TokenCounter = (text: string) => number;

/** The longest piece handed to the tokenizer when a text has no space to cut at. */
export const MAX_RUN = 256;
/** Pieces cut at spaces are handed over in chunks of about this many characters. */
const CHUNK = 8_192;
/** Texts up to this many characters are counted whole. */
export const EXACT_LIMIT = 1024;
/** A longer text is counted from windows of `WINDOW` characters: one for each `SAMPLED_SHARE` windows' worth of it. */
const WINDOW = 256;
const SAMPLED_SHARE = 8;
const MIN_WINDOWS = 2;
const MAX_WINDOWS = 32;
/** The most of one text the tokenizer sees: every window, each end moved to a cut at most `MAX_RUN` on. */
export const MOST_COUNTED = Math.max(EXACT_LIMIT, MAX_WINDOWS * (WINDOW + MAX_RUN));

/** Tokens of `text` by `count`, which sees only bounded pieces and, past `EXACT_LIMIT`, windows over a share of it. */
export function estimateTextTokens(text: string, count: TokenCounter): number {
  if (text.length <= EXACT_LIMIT) return countInPieces(text, count);
  const windows = Math.min(MAX_WINDOWS, Math.max(MIN_WINDOWS, Math.ceil(text.length / (SAMPLED_SHARE * WINDOW))));
  let tokens = 0;
  let bytes = 0;
  for (let index = 0; index < windows; index += 1) {
    const window = windowAt(text, Math.floor((index * (text.length - WINDOW)) / (windows - 1)));
    tokens += countInPieces(window, count);
    bytes += Buffer.byteLength(window, 'utf8');
  }
  return Math.round((tokens * Buffer.byteLength(text, 'utf8')) / bytes);
}

/**
 * About `WINDOW` characters of `text` from `start`, each end moved to the next cut (if one comes
 * within `MAX_RUN`), so that the window's count is that of its part of the whole.
 */
function windowAt(text: string, start: number): string {
  // One character before `start` is kept as context: whether a space there follows a non-space.
  const from = Math.max(0, start - 1);
  const region = text.slice(from, start + WINDOW + MAX_RUN);
  const first = start === 0 ? 0 : alignedCut(region, 1);
  const last = start + WINDOW + MAX_RUN >= text.length ? region.length : alignedCut(region, first + WINDOW);
  return region.slice(first, last);
}

/** The first cut at or after `at` if it comes within `MAX_RUN`, else `at`. */
function alignedCut(region: string, at: number): number {
  const cut = nextCut(region, at - 1);
  return cut - at <= MAX_RUN ? cut : at;
}

/** Tokens of `text`, handed to `count` in chunks cut at spaces and, where there are none, every `MAX_RUN` characters. */
export function countInPieces(text: string, count: TokenCounter): number {
  let tokens = 0;
  let chunkStart = 0;
  let runStart = 0;
  while (runStart < text.length) {
    const runEnd = nextCut(text, runStart);
    if (runEnd - runStart > MAX_RUN) {
      if (runStart > chunkStart) tokens += count(text.slice(chunkStart, runStart));
      for (let at = runStart; at < runEnd;) {
        const end = pieceEnd(text, at, runEnd);
        tokens += count(text.slice(at, end));
        at = end;
      }
      chunkStart = runEnd;
    } else if (runEnd - chunkStart > CHUNK) {
      tokens += count(text.slice(chunkStart, runStart));
      chunkStart = runStart;
    }
    runStart = runEnd;
  }
  if (text.length > chunkStart) tokens += count(text.slice(chunkStart));
  return tokens;
}

const WHITESPACE = /\s/;

/** The next space after `from` that follows a non-space (a pre-token starts there), or the text's end. */
function nextCut(text: string, from: number): number {
  for (let at = text.indexOf(' ', from + 1); at !== -1; at = text.indexOf(' ', at + 1)) {
    if (!WHITESPACE.test(text.charAt(at - 1))) return at;
  }
  return text.length;
}

/** `at + MAX_RUN` (at most `end`), moved back one so as not to split a surrogate pair. */
function pieceEnd(text: string, at: number, end: number): number {
  const cut = Math.min(at + MAX_RUN, end);
  if (cut === end) return cut;
  const unit = text.charCodeAt(cut - 1);
  return unit >= 0xd800 && unit <= 0xdbff ? cut - 1 : cut;
}
