import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { SearchFilesResult, SearchMatch } from '../../protocol/tools.ts';
import { shownPath, textChunks } from './file-content.ts';
import { defineTool, ToolError } from './tool.ts';
import { walk } from './walk.ts';

// `search_files`: a regular expression over the workspace's text files, line by line, like a
// small grep. Files are streamed, binary files skipped, `.gitignore` honoured (the walk of
// list_dir); at most MAX_MATCHES matches, each line cut to MAX_LINE_CHARS around the match.

export const MAX_MATCHES = 100;
export const MAX_LINE_CHARS = 500;
const CHUNK_BYTES = 128 * 1024;
const WALK_DEPTH = Number.POSITIVE_INFINITY;

const schema = z.object({
  pattern: z.string().min(1).describe('A JavaScript regular expression, matched against each line.'),
  path: z.string().min(1).optional().describe('Folder (or file) to search, relative to the workspace root (default: the root).'),
  glob: z.string().min(1).optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.test.ts" (relative to path).'),
  ignore_case: z.boolean().optional().describe('Match without regard to case (default false).'),
});

export type SearchFilesArgs = z.infer<typeof schema>;

/** SearchFilesResult (protocol/tools.ts), for programs that call search_files from run_code. */
export const searchFilesResultSchema = z.strictObject({
  pattern: z.string(),
  matches: z.array(
    z.strictObject({
      path: z.string().describe('Relative to the workspace root.'),
      line: z.number().int().describe('1-based.'),
      text: z.string().describe(`The matching line, cut to ${MAX_LINE_CHARS} characters around the match.`),
    }),
  ),
  files_searched: z.number().int(),
  truncated: z.boolean().describe(`True when the search stopped at ${MAX_MATCHES} matches.`),
});

export const searchFilesTool = defineTool<SearchFilesArgs, SearchFilesResult>({
  name: 'search_files',
  description:
    'Search text files for a regular expression, line by line; returns "path:line: text" for each match. ' +
    `Honours .gitignore and skips binary files; at most ${MAX_MATCHES} matches, lines cut to ${MAX_LINE_CHARS} characters. ` +
    'Narrow with path and glob.',
  kind: 'read',
  schema,
  resultSchema: searchFilesResultSchema,
  paths: (args) => [{ path: args.path ?? '.', access: 'read' }],
  approval: (args) => ({ title: `Search ${args.path ?? 'the workspace'}`, detail: `/${args.pattern}/${args.ignore_case ? 'i' : ''}${args.glob ? ` in ${args.glob}` : ''}` }),
  async execute(args, ctx) {
    const requested = args.path ?? '.';
    const real = ctx.resolvedPath(requested);
    const shown = shownPath(ctx.workspace, requested, real);
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, args.ignore_case ? 'i' : '');
    } catch (error) {
      throw new ToolError(`The pattern is not a valid regular expression: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`);
    }
    const root = await stat(real).catch(() => null);
    if (!root) throw new ToolError(`${shown} does not exist. Search its parent folder, or check the path with list_dir.`);

    const matches: SearchMatch[] = [];
    let filesSearched = 0;
    let truncated = false;
    const base = shown === '.' ? '' : `${shown}/`;
    const files = root.isDirectory() ? candidateFiles(real, args.glob, ctx.workspace, ctx.signal) : singleFile(real, path.basename(real));
    for await (const file of files) {
      const name = root.isDirectory() ? `${base}${file.relative}` : shown;
      const outcome = await searchFile(file.absolute, regex, MAX_MATCHES - matches.length, ctx.signal);
      if (outcome === null) continue;
      filesSearched += 1;
      for (const hit of outcome.hits) matches.push({ path: name, line: hit.line, text: hit.text });
      if (outcome.more) {
        truncated = true;
        break;
      }
    }
    return { pattern: args.pattern, matches, files_searched: filesSearched, truncated };
  },
  render: (result) => renderSearch(result),
});

interface Candidate {
  absolute: string;
  relative: string;
}

async function* candidateFiles(folder: string, glob: string | undefined, workspace: string, signal: AbortSignal): AsyncGenerator<Candidate> {
  // A glob without a slash ("*.ts") matches the file name at any depth.
  const accepts = glob ? picomatch(glob, { dot: true, basename: !glob.includes('/') }) : () => true;
  for await (const entry of walk(folder, { workspace, maxDepth: WALK_DEPTH, signal })) {
    if (entry.kind === 'file' && accepts(entry.path)) yield { absolute: entry.absolute, relative: entry.path };
  }
}

async function* singleFile(absolute: string, relative: string): AsyncGenerator<Candidate> {
  yield { absolute, relative };
}

interface FileHits {
  hits: { line: number; text: string }[];
  /** More matches than `room` were found. */
  more: boolean;
}

/** Matches in one file, at most `room` of them; null for a file that is not text or cannot be read. */
async function searchFile(absolute: string, regex: RegExp, room: number, signal: AbortSignal): Promise<FileHits | null> {
  // O_NOFOLLOW: a file swapped for a link after the walk is not followed out of the workspace.
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return null;
  try {
    if (!(await handle.stat()).isFile()) return null;
    const decoder = new TextDecoder('utf-8');
    const hits: FileHits['hits'] = [];
    let carry = '';
    let line = 0;
    // True when a match did not fit in `room`.
    const check = (text: string): boolean => {
      line += 1;
      const found = regex.exec(text);
      if (!found) return false;
      if (hits.length === room) return true;
      hits.push({ line, text: cutAround(text.endsWith('\r') ? text.slice(0, -1) : text, found.index) });
      return false;
    };
    const scan = (text: string): boolean => {
      // A long line arriving in pieces is only joined once its end is seen.
      if (!text.includes('\n')) {
        carry += text;
        return false;
      }
      const parts = (carry + text).split('\n');
      carry = parts.pop() ?? '';
      return parts.some(check);
    };
    const chunks = await textChunks(handle, CHUNK_BYTES, signal);
    if (chunks === null) return null;
    for await (const chunk of chunks) {
      if (scan(decoder.decode(chunk, { stream: true }))) return { hits, more: true };
    }
    const last = carry + decoder.decode();
    return { hits, more: last.length > 0 && check(last) };
  } finally {
    await handle.close();
  }
}

/** At most MAX_LINE_CHARS of the line, starting a little before the match when it lies further in. */
function cutAround(text: string, index: number): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  const start = index + 50 > MAX_LINE_CHARS ? Math.max(0, Math.min(index - 100, text.length - MAX_LINE_CHARS)) : 0;
  const end = start + MAX_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

export function renderSearch(result: SearchFilesResult): string {
  if (result.matches.length === 0) {
    return `No matches for /${result.pattern}/ in ${result.files_searched} file${result.files_searched === 1 ? '' : 's'} searched.`;
  }
  const lines = result.matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
  if (result.truncated) lines.push(`\n(Only the first ${MAX_MATCHES} matches are shown. Narrow the pattern, path or glob to see the rest.)`);
  return lines.join('\n');
}
