import { MAX_MENTIONS, mentionToken, type MentionKind } from '../../protocol/composer.ts';

// `@` in the message box: which mention the caret is in, what picking a path does to the text,
// and which picked paths a message still mentions when it is sent.

export interface MentionQuery {
  /** What follows the `@` up to the caret. */
  query: string;
  /** Where the `@` is. */
  start: number;
  /** Where the token ends (the caret, or the end of the word the caret is in). */
  end: number;
}

/** The `@word` the caret is in or just after, when the `@` starts the text or follows white space. */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  let start = caret;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start -= 1;
  if (text[start] !== '@') return null;
  let end = caret;
  while (end < text.length && !/\s/.test(text[end]!)) end += 1;
  const query = text.slice(start + 1, caret);
  // `@"` begins a quoted path: the picker searches without the quote.
  return { query: query.replace(/^"/, ''), start, end };
}

/** The text with the mention replaced by the picked path (and a space after), and where the caret goes. */
export function insertMention(text: string, at: MentionQuery, path: string): { text: string; caret: number } {
  const token = `${mentionToken(path)} `;
  const after = text.slice(at.end).replace(/^ /, '');
  return { text: text.slice(0, at.start) + token + after, caret: at.start + token.length };
}

/** A path as the message sends it: a folder ends in `/`, so main lists it instead of reading it. */
export function mentionPath(path: string, kind: MentionKind): string {
  return kind === 'dir' ? `${path}/` : path;
}

/**
 * The picked paths whose token is still in the text, in the order they appear, each once: a
 * mention the person deleted is not sent, and `@word` typed by hand (an e-mail, a handle) never is.
 */
export function mentionsIn(text: string, picked: ReadonlyMap<string, MentionKind>): string[] {
  const found: { at: number; path: string }[] = [];
  for (const [path, kind] of picked) {
    const token = mentionToken(path);
    for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
      const before = at === 0 ? ' ' : text[at - 1]!;
      const after = text[at + token.length] ?? ' ';
      if (/\s/.test(before) && /[\s,.;:!?)]/.test(after)) {
        found.push({ at, path: mentionPath(path, kind) });
        break;
      }
    }
  }
  return found
    .sort((a, b) => a.at - b.at)
    .map((entry) => entry.path)
    .slice(0, MAX_MENTIONS);
}
