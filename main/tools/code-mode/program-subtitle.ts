// The subtitle of a Code Mode card: what the program is about, in one line. A leading comment is
// the program's own description and wins; otherwise the first line that says something (not a
// lone brace, bracket or a 'use strict').

const MAX = 80;

/** Lines that carry no meaning on their own: punctuation only, or a directive. */
const EMPTY_LINE = /^[\s{}()[\];,]*$|^['"]use strict['"];?$/;

function commentText(line: string): string | null {
  const slashes = /^\/\/+\s?(.*)$/.exec(line);
  if (slashes) return slashes[1] ?? '';
  const block = /^\/\*+\s?(.*?)\s*(\*+\/)?$/.exec(line);
  if (block) return block[1] ?? '';
  const continued = /^\*+(?!\/)\s?(.*)$/.exec(line);
  return continued ? (continued[1] ?? '') : null;
}

export function programSubtitle(code: string): string {
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (EMPTY_LINE.test(line)) continue;
    const comment = commentText(line);
    if (comment === null) return line.slice(0, MAX);
    // The first comment line with words is the description; a bare `//` or `/**` is passed over.
    if (comment.trim() !== '') return comment.trim().slice(0, MAX);
  }
  return '';
}
