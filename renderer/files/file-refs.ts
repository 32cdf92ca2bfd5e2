// Where a text names a workspace file: `src/app.ts`, `./README.md:12`, `main/x.ts:40:7`. Only the
// shape is judged here; a reference becomes a link once the panel has confirmed the file exists
// (existing-files.ts), so `e.g.` or `and/or` cost one question and never show as links.

export interface FileRef {
  /** Where the reference starts and ends in the text (the `:line` included). */
  start: number;
  end: number;
  path: string;
  line?: number;
}

/** At most this many references are looked for in one text, so a huge output asks little. */
export const MAX_REFS = 100;

// A path: optional `/`, `./` or `../` steps, then segments of word characters, dots, dashes, `@` and
// `+`; optionally `:line` and `:column`. Not inside a longer word, a URL (`://`) or an e-mail address.
const REF =
  /(?<![\w/.:@~\\-])((?:\.{1,2}\/|\/)?(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*)(?::(\d{1,7})(?::\d{1,5})?)?(?![\w/@])/gu;

/** A file extension: a dot, then a letter and up to nine letters or digits. */
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;

/** Names that read as files without an extension. */
const BARE_NAMES = new Set(['Makefile', 'Dockerfile', 'LICENSE', 'Gemfile', 'Rakefile', 'Procfile', 'Justfile']);

function looksLikeFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === '' || name === '.' || name === '..') return false;
  // `@` starts a scope folder (`@types/node`); inside a name it is an e-mail address.
  if (/[^/]@/.test(path)) return false;
  if (EXTENSION.test(name) || BARE_NAMES.has(name)) return !/^\d+(\.\d+)+$/.test(name);
  // A path of folders with a slash in it (`src/cards/View`) may be a file with no extension.
  return path.includes('/') && /[A-Za-z]/.test(name);
}

export function findFileRefs(text: string): FileRef[] {
  const refs: FileRef[] = [];
  for (const match of text.matchAll(REF)) {
    if (refs.length >= MAX_REFS) break;
    let path = match[1] ?? '';
    const start = match.index;
    // A sentence's full stop is not part of the name: `see src/app.ts.`
    const trailing = /\.+$/.exec(path)?.[0].length ?? 0;
    if (trailing > 0 && match[2] === undefined) path = path.slice(0, -trailing);
    if (!looksLikeFile(path)) continue;
    const line = match[2] === undefined ? undefined : Number(match[2]);
    const end = match[2] === undefined ? start + path.length : start + match[0].length;
    refs.push({ start, end, path, ...(line !== undefined && line > 0 ? { line } : {}) });
  }
  return refs;
}

/** The whole text as one reference (inline code such as `src/app.ts:12`), or null. */
export function wholeFileRef(text: string): FileRef | null {
  const trimmed = text.trim();
  const [ref] = findFileRefs(trimmed);
  return ref && ref.start === 0 && ref.end === trimmed.length ? ref : null;
}
