import { constants } from 'node:fs';
import { stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import {
  SEARCH_LINE_CHARS,
  SEARCH_MAX_MATCHES,
  searchFilesResultSchema,
  type SearchFilesResult,
} from '../../../protocol/tools.ts';
import { openVerified } from './confined-fs.ts';
import { shownPath, textChunks } from './file-content.ts';
import { folderDescription } from '../describe.ts';
import { runSearch } from './search-runner.ts';
import { defineTool, ToolError } from '../tool.ts';
import { walk } from './walk.ts';
import { searchFilesArgsSchema, type SearchFilesArgs } from '../../../protocol/tool-args.ts';

// `search_files`: a regular expression over the workspace's text files, line by line, like a
// small grep. Files are streamed, binary files skipped, `.gitignore` honoured (the walk of
// list_dir); at most MAX_MATCHES matches, each line cut to MAX_LINE_CHARS around the match. A
// line longer than LONG_LINES.windowChars is searched window by window, never held whole.

export const MAX_MATCHES = SEARCH_MAX_MATCHES;
export const MAX_LINE_CHARS = SEARCH_LINE_CHARS;
const CHUNK_BYTES = 128 * 1024;

/**
 * How a line too long to hold whole is searched: in windows of `windowChars` characters, each
 * window starting `overlap` characters (fewer than `windowChars`) before the previous one ended,
 * so a match up to `overlap` characters long is found wherever it lies. Without this a line is
 * held whole, and one over about 512 MB cannot even be a string.
 */
export interface LongLineLimits {
  windowChars: number;
  overlap: number;
}
/** A longer pattern is cut in the card's subtitle; the approval and the card's details have it whole. */
const MAX_SUBTITLE_PATTERN = 200;

export const LONG_LINES: LongLineLimits = { windowChars: 1024 * 1024, overlap: 4096 };

const WALK_DEPTH = Number.POSITIVE_INFINITY;

export const searchFilesTool = defineTool<SearchFilesArgs, SearchFilesResult>({
  name: 'search_files',
  model: {
    description:
      'Search text files for a regular expression, line by line; returns "path:line: text" for each match. ' +
      `Honours .gitignore and skips binary files; at most ${MAX_MATCHES} matches, lines cut to ${MAX_LINE_CHARS} characters. ` +
      `Lines over ${LONG_LINES.windowChars} characters (minified files) are searched in overlapping pieces, where a match longer than ${LONG_LINES.overlap} characters can be missed. ` +
      'Narrow with path and glob.',
    schema: searchFilesArgsSchema,
    resultSchema: searchFilesResultSchema,
    render: (result) => renderSearch(result),
  },
  gate: {
    kind: 'read',
    paths: (args) => [{ path: args.path ?? '.', access: 'read' }],
  },
  card: {
    // The subtitle is what is searched for, and where when it is not the whole workspace: a card
    // showing only the folder (often `.`) would hide the one argument that tells two searches apart.
    describe: (args, ctx) => {
      const pattern = `/${args.pattern.slice(0, MAX_SUBTITLE_PATTERN)}/${args.ignore_case ? 'i' : ''}`;
      const folder = folderDescription('Search', args.path, ctx.workspace);
      const where = [folder.path, args.glob].filter(Boolean).join('/');
      return {
        title: folder.title,
        subtitle: where ? `${pattern} in ${where}` : pattern,
        detail: `/${args.pattern}/${args.ignore_case ? 'i' : ''}${args.glob ? ` in ${args.glob}` : ''}`,
      };
    },
  },
  async execute(args, ctx) {
    const requested = args.path ?? '.';
    const real = ctx.resolvedPath(requested);
    const shown = shownPath(ctx.workspace, requested, real);
    const flags = args.ignore_case ? 'i' : '';
    try {
      // Compiling is safe on this thread; matching is what can take forever, and runs in the worker.
      RegExp(args.pattern, flags);
    } catch (error) {
      throw new ToolError(
        `The pattern is not a valid regular expression: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`,
      );
    }
    const root = await stat(real).catch(() => null);
    if (!root)
      throw new ToolError(`${shown} does not exist. Search its parent folder, or check the path with list_dir.`);

    // The walk and the matching run in a worker thread (search-worker.ts), watched by search-runner.ts.
    const request = { pattern: args.pattern, flags, real, shown, glob: args.glob, workspace: ctx.workspace };
    return runSearch({ ...request, isDirectory: root.isDirectory() }, { signal: ctx.signal });
  },
});

export interface Candidate {
  absolute: string;
  relative: string;
}

/** The files a search of `folder` reads: not ignored, and matching the glob when there is one. */
export async function* candidateFiles(
  folder: string,
  glob: string | undefined,
  workspace: string,
  signal: AbortSignal,
): AsyncGenerator<Candidate> {
  // A glob without a slash ("*.ts") matches the file name at any depth.
  const accepts = glob ? picomatch(glob, { dot: true, basename: !glob.includes('/') }) : () => true;
  for await (const entry of walk(folder, { workspace, maxDepth: WALK_DEPTH, signal })) {
    if (entry.kind === 'file' && accepts(entry.path)) yield { absolute: entry.absolute, relative: entry.path };
  }
}

export async function* singleFile(absolute: string, relative: string): AsyncGenerator<Candidate> {
  yield { absolute, relative };
}

interface FileHits {
  hits: { line: number; text: string }[];
  /** More matches than `room` were found. */
  more: boolean;
}

/** Matches in one file, at most `room` of them; null for a file that is not text or cannot be read. */
export async function searchFile(
  absolute: string,
  regex: RegExp,
  room: number,
  signal: AbortSignal,
  limits: LongLineLimits = LONG_LINES,
): Promise<FileHits | null> {
  // Verified at use time: a file, or a folder on its path, swapped for a link after the walk is
  // not followed out of the workspace (confined-fs.ts).
  const handle = await openVerified(absolute, constants.O_RDONLY | constants.O_NONBLOCK, absolute).catch(() => null);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
    const chunks = await textChunks(handle, CHUNK_BYTES, signal, stat.size);
    if (chunks === null) return null;
    const lines = new LineMatcher(regex, room, limits);
    const decoder = new TextDecoder('utf-8');
    for await (const chunk of chunks) {
      if (lines.feed(decoder.decode(chunk, { stream: true }))) return { hits: lines.hits, more: true };
    }
    return { hits: lines.hits, more: lines.end(decoder.decode()) };
  } finally {
    await handle.close();
  }
}

/**
 * Feeds a file's text through, line by line, keeping at most about one window of the current
 * line: a line of any length costs bounded memory, and its first match is still reported.
 */
class LineMatcher {
  readonly hits: FileHits['hits'] = [];
  private readonly regex: RegExp;
  private readonly global: RegExp;
  private readonly room: number;
  private readonly limits: LongLineLimits;
  private line = 1;
  /** The current line's text not yet searched (all of it, for a line shorter than a window). */
  private carry = '';
  /** `carry` does not begin at the line's start (an earlier window was searched). */
  private continued = false;
  /** The current line already has its match; the rest of it is skipped. */
  private matched = false;

  constructor(regex: RegExp, room: number, limits: LongLineLimits) {
    this.regex = regex;
    this.global = new RegExp(regex.source, `${regex.flags}g`);
    this.room = room;
    this.limits = limits;
  }

  /** True when a match did not fit in `room`. */
  feed(text: string): boolean {
    for (let position = 0; ;) {
      const newline = text.indexOf('\n', position);
      if (this.grow(newline === -1 ? text.slice(position) : text.slice(position, newline))) return true;
      if (newline === -1) return false;
      if (this.endLine()) return true;
      position = newline + 1;
    }
  }

  /** The file ends with `rest`; a last line without a newline is searched too. */
  end(rest: string): boolean {
    if (this.grow(rest)) return true;
    return (this.carry.length > 0 || this.continued) && this.endLine();
  }

  private grow(piece: string): boolean {
    if (this.matched) return false;
    this.carry += piece;
    const { windowChars, overlap } = this.limits;
    while (!this.matched && this.carry.length > windowChars) {
      if (this.search(this.carry.slice(0, windowChars), false)) return true;
      // Keep the overlap, plus one character so a match starting the overlap keeps what precedes it.
      if (!this.matched) this.carry = this.carry.slice(windowChars - overlap - 1);
      this.continued = true;
    }
    return false;
  }

  private endLine(): boolean {
    const full = !this.matched && this.search(this.carry, true);
    this.line += 1;
    this.carry = '';
    this.continued = false;
    this.matched = false;
    return full;
  }

  /** Searches one window of the line (its last when `last`); true when a match did not fit. */
  private search(text: string, last: boolean): boolean {
    const index = this.find(text, last);
    if (index === -1) return false;
    this.matched = true;
    this.carry = '';
    if (this.hits.length === this.room) return true;
    const shown = last && text.endsWith('\r') ? text.slice(0, -1) : text;
    this.hits.push({ line: this.line, text: cutAround(shown, index, this.continued, !last) });
    return false;
  }

  /**
   * The first match's index in a window, -1 for none. A window cut out of a longer line has edges
   * that are not the line's: a match at a continued window's first character may be an artefact
   * of that edge (`^`, a lookbehind), and one reaching a window's end within the overlap is left
   * to the next window, which sees what follows it.
   */
  private find(text: string, last: boolean): number {
    if (!this.continued && last) return this.regex.exec(text)?.index ?? -1;
    const settled = text.length - this.limits.overlap;
    this.global.lastIndex = this.continued ? 1 : 0;
    for (let found = this.global.exec(text); found; found = this.global.exec(text)) {
      if (last || found.index + found[0].length < text.length || found.index < settled) return found.index;
      if (found[0].length === 0) this.global.lastIndex += 1;
    }
    return -1;
  }
}

/**
 * At most MAX_LINE_CHARS of the line, starting a little before the match when it lies further in;
 * `before` and `after` say that the text is a window with more of the line on that side.
 */
function cutAround(text: string, index: number, before = false, after = false): string {
  const start =
    text.length <= MAX_LINE_CHARS
      ? 0
      : index + 50 > MAX_LINE_CHARS
        ? Math.max(0, Math.min(index - 100, text.length - MAX_LINE_CHARS))
        : 0;
  const end = Math.min(start + MAX_LINE_CHARS, text.length);
  return `${start > 0 || before ? '…' : ''}${text.slice(start, end)}${end < text.length || after ? '…' : ''}`;
}

export function renderSearch(result: SearchFilesResult): string {
  if (result.matches.length === 0) {
    return `No matches for /${result.pattern}/ in ${result.files_searched} file${result.files_searched === 1 ? '' : 's'} searched.`;
  }
  const lines = result.matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
  if (result.truncated)
    lines.push(
      `\n(Only the first ${MAX_MATCHES} matches are shown. Narrow the pattern, path or glob to see the rest.)`,
    );
  return lines.join('\n');
}
