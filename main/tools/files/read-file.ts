import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { readFileEchoSchema } from '../../../protocol/echo.ts';
import { READ_PAGE_LINES, readFileResultSchema, type ReadFileResult } from '../../../protocol/tools.ts';
import { fileChunks, openForReading, shownPath } from './file-content.ts';
import { decodedChunks, UTF8 } from './file-encoding.ts';
import { LinePrefix, MAX_LINE_CHARS } from './line-prefix.ts';
import { DEFAULT_SPILL_LIMITS } from '../policies.ts';
import { pathDescription, requestedLines } from '../describe.ts';
import { declareEcho, defineTool, ToolError } from '../tool.ts';
import { readFileArgsSchema, type ReadFileArgs } from '../../../protocol/tool-args.ts';

// `read_file`: one page of a text file with numbered lines and the whole file's sha256 for the
// model (in a small XML wrapper, the hash under the footer, for later writes), and the same page
// without numbers for the card.
// The file is streamed once: hashed whole, counted whole, but only the page is decoded and kept,
// and of a very long line only what is shown of it.

export const PAGE_LINES = READ_PAGE_LINES;
export { MAX_LINE_CHARS };
const CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export const readFileTool = defineTool<ReadFileArgs, ReadFileResult>({
  name: 'read_file',
  model: {
    description:
      `Read a text file. Returns numbered lines, at most ${PAGE_LINES} per call (fewer when lines are long: a page ` +
      `stays under ${Math.round(DEFAULT_SPILL_LIMITS.maxBytes / 1024)} KiB); the footer says how to continue ` +
      `(offset is the first line, 1-based). Lines longer than ${MAX_LINE_CHARS} characters are cut. ` +
      'The result includes the sha256 of the whole file, which write_file needs to overwrite it.',
    schema: readFileArgsSchema,
    resultSchema: readFileResultSchema,
    pagesItself: true,
    render: (result) => renderReadFile(result),
  },
  gate: {
    kind: 'read',
    paths: (args) => [{ path: args.path, access: 'read' }],
  },
  card: {
    // Two reads of one file differ by their lines: the title says which (the card shows the page's range).
    describe: (args, ctx) => {
      const lines = requestedLines(args.offset, args.limit);
      return pathDescription(`Read ${args.path}${lines ? `, ${lines}` : ''}`, args.path, ctx.workspace, args.path);
    },
    // The page without its numbers and the model's wrapper: the card numbers the lines itself.
    echo: declareEcho(readFileEchoSchema, (result: ReadFileResult) => ({
      kind: 'read-file',
      path: result.path,
      range: result.range,
      total_lines: result.total_lines,
      content: result.content,
      truncated: result.truncated,
    })),
  },
  async execute(args, ctx) {
    const real = ctx.resolvedPath(args.path);
    const shown = shownPath(ctx.workspace, args.path, real);
    const start = args.offset ?? 1;
    const count = Math.min(args.limit ?? PAGE_LINES, PAGE_LINES);
    const { handle, size } = await openForReading(real, shown);
    let scan: PageScan;
    try {
      scan = await scanPage(handle, size, start, count, shown, Buffer.byteLength(shown), ctx.signal);
    } finally {
      await handle.close();
    }
    if (start > 1 && start > scan.totalLines) {
      throw new ToolError(
        `offset ${start} is past the end of ${shown}, which has ${scan.totalLines} line${scan.totalLines === 1 ? '' : 's'}. Use an offset from 1 to ${Math.max(scan.totalLines, 1)}.`,
      );
    }
    const end = start + scan.pageLines - 1;
    return {
      path: shown,
      range: { start, end },
      total_lines: scan.totalLines,
      content: scan.page.join(''),
      sha256: scan.sha256,
      truncated: end < scan.totalLines,
      ...(scan.encoding !== UTF8 ? { encoding: scan.encoding } : {}),
      ...(scan.mixedEndings ? { line_endings: scan.mixedEndings } : {}),
    };
  },
});

interface PageScan {
  /** The page's lines as shown, each with its own line ending (over-long lines cut). */
  page: string[];
  /** How many lines the page holds (it may stop before `count` to stay within the output budget). */
  pageLines: number;
  totalLines: number;
  sha256: string;
  /** The file's encoding (UTF8 for UTF-8). */
  encoding: string;
  /** Lines ending in CRLF and in LF, when the file has both. */
  mixedEndings?: { crlf: number; lf: number };
}

/**
 * What one page may cost: PAGE_LINES lines, and no more bytes than the pipeline's spill limit (the
 * tool pages itself, so the spill policy leaves its pages alone). The wrapper is the path and type
 * lines, the footer and the sha256 line.
 */
const WRAPPER_BYTES = 300;
export const PAGE_BUDGET = {
  lines: PAGE_LINES,
  bytes: DEFAULT_SPILL_LIMITS.maxBytes - WRAPPER_BYTES,
};
/** A cut line shows at most MAX_LINE_CHARS characters (4 bytes each at worst) and the marker. */
const MAX_SHOWN_LINE_BYTES = MAX_LINE_CHARS * 4 + 80;

/**
 * One pass: hash every byte, count every line, keep up to `count` lines from line `first`
 * (1-based), stopping early when the next line would not fit the page budget. Of each page line
 * only a bounded prefix is kept (LinePrefix), so one huge line costs no more memory than a page.
 */
async function scanPage(
  handle: FileHandle,
  size: number,
  first: number,
  count: number,
  shown: string,
  pathBytes: number,
  signal: AbortSignal,
): Promise<PageScan> {
  const hash = createHash('sha256');
  const page: string[] = [];
  const maxLines = Math.min(count, PAGE_BUDGET.lines);
  let pageLines = 0;
  let pageBytes = pathBytes;
  let pending = new LinePrefix();
  let closed = false;
  let line = 1;
  let endsWithNewline = true;
  let sawBytes = false;
  // The line now complete joins the page if it fits; otherwise the page is closed before it.
  const settleLine = (): void => {
    const cost = String(line).length + 3 + Math.min(pending.bytes, MAX_SHOWN_LINE_BYTES);
    if (pageLines > 0 && pageBytes + cost > PAGE_BUDGET.bytes) {
      closed = true;
    } else {
      page.push(pending.shown());
      pageLines += 1;
      pageBytes += cost;
      if (pageLines === maxLines) closed = true;
    }
    pending = new LinePrefix();
  };
  const file = await decodedChunks(fileChunks(handle, CHUNK_BYTES, signal, size), CHUNK_BYTES);
  if (file === null)
    throw new ToolError(
      `${shown} looks like a binary file (not text in UTF-8 or an encoding that could be detected), so it cannot be shown as lines.`,
    );
  const endings = new LineEndingCount();
  // Raw bytes are hashed; lines are read from the text as UTF-8 (the byte order mark left out).
  for await (const { raw, text: chunk } of file.chunks) {
    hash.update(raw);
    if (chunk.length > 0) endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
    else if (!sawBytes && raw.length > 0) endsWithNewline = false; // A file that is only a byte order mark.
    sawBytes ||= raw.length > 0;
    endings.add(chunk);
    let position = 0;
    while (position < chunk.length) {
      if (closed) {
        // Past the page: only the count matters.
        for (let next = chunk.indexOf(NEWLINE, position); next !== -1; next = chunk.indexOf(NEWLINE, next + 1))
          line += 1;
        break;
      }
      const newline = chunk.indexOf(NEWLINE, position);
      const stop = newline === -1 ? chunk.length : newline + 1;
      if (line >= first) pending.add(chunk.subarray(position, stop));
      if (newline === -1) break;
      if (line >= first) settleLine();
      line += 1;
      position = stop;
    }
  }
  // A last line without a newline (even one that is only a byte order mark) is still a line.
  if (!closed && line >= first && sawBytes && !endsWithNewline) settleLine();
  // `line` is the line the next byte would start; a last line without a newline still counts.
  const totalLines = !sawBytes ? 0 : endsWithNewline ? line - 1 : line;
  return {
    page,
    pageLines,
    totalLines,
    sha256: hash.digest('hex'),
    encoding: file.encoding.name,
    ...(endings.crlf > 0 && endings.lf > 0 ? { mixedEndings: { crlf: endings.crlf, lf: endings.lf } } : {}),
  };
}

/** Counts the lines that end in CRLF and in a bare LF, across chunk boundaries. */
class LineEndingCount {
  crlf = 0;
  lf = 0;
  private last = -1;

  add(chunk: Buffer): void {
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) {
      if ((index > 0 ? chunk[index - 1] : this.last) === CARRIAGE_RETURN) this.crlf += 1;
      else this.lf += 1;
    }
    if (chunk.length > 0) this.last = chunk[chunk.length - 1]!;
  }
}

/** The notes under the footer: an encoding other than UTF-8, line endings that are mixed. */
function fileNotes(result: ReadFileResult): string[] {
  const notes: string[] = [];
  if (result.encoding)
    notes.push(
      `(This file is encoded in ${result.encoding}, not UTF-8, and is shown decoded. write_file and patch_file refuse to change it unless given "encoding": ${JSON.stringify(result.encoding)}; they then write it back in ${result.encoding}.)`,
    );
  if (result.line_endings)
    notes.push(
      `(Line endings are mixed: ${result.line_endings.crlf} lines end in CRLF and ${result.line_endings.lf} in LF. patch_file matches either and keeps each line's own ending.)`,
    );
  return notes;
}

/** The model's text of a page; its lines are already cut as they should be shown (LinePrefix). */
export function renderReadFile(result: ReadFileResult): string {
  const lines = result.content.length === 0 ? [] : result.content.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const numbered = lines.map(
    (text, index) => `${result.range.start + index}: ${text.endsWith('\r') ? text.slice(0, -1) : text}`,
  );
  const { start, end } = result.range;
  const footer = result.truncated
    ? `(Showing lines ${start}-${end} of ${result.total_lines}. Use offset=${end + 1} to continue.)`
    : `(End of file - total ${result.total_lines} lines)`;
  // The hash goes to the model too: write_file and patch_file take it back as expected_sha256.
  const notes = [footer, `sha256: ${result.sha256}`, ...fileNotes(result)].join('\n');
  const body = numbered.length > 0 ? `${numbered.join('\n')}\n\n${notes}` : notes;
  return `<path>${result.path}</path>\n<type>file</type>\n<content>\n${body}\n</content>`;
}
