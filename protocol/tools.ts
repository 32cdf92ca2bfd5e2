import { z } from 'zod';
import { reviewOutcomeSchema } from './review.ts';
import { previewProgressSchema } from './sandbox.ts';

// Structured results of the instrumenta, written once as zod: main checks each tool's result with
// them (and types run_code programs from them), the renderer decodes echoes built from them. The
// schemas are strict, so a field a tool starts returning without its schema fails the tests.

/** Limits the result descriptions promise; main's tools enforce them. */
export const READ_PAGE_LINES = 2000;
export const READ_LINE_CHARS = 2000;
export const LIST_MAX_ENTRIES = 500;
export const SEARCH_MAX_MATCHES = 100;
export const SEARCH_LINE_CHARS = 500;

export const lineRangeSchema = z.strictObject({
  start: z.number().int().describe('First line of the page, 1-based.'),
  end: z.number().int().describe('Last line of the page (inclusive); start - 1 when the page is empty.'),
});
export type LineRange = z.infer<typeof lineRangeSchema>;

export const readFileResultSchema = z.strictObject({
  path: z.string(),
  range: lineRangeSchema,
  total_lines: z.number().int(),
  content: z
    .string()
    .describe(
      `The page's text, without line numbers. A line longer than ${READ_LINE_CHARS} characters is cut as the model sees it, with a note of its full length.`,
    ),
  sha256: z.string().describe('Of the whole file: write_file and patch_file take it as expected_sha256.'),
  truncated: z.boolean().describe('True when lines remain after range.end.'),
  encoding: z
    .string()
    .optional()
    .describe(
      'Set when the file is not UTF-8: the encoding it was decoded from. write_file and patch_file take it back as their encoding.',
    ),
  line_endings: z
    .strictObject({ crlf: z.number().int(), lf: z.number().int() })
    .optional()
    .describe('Set when the file mixes line endings: how many lines end in CRLF and how many in LF.'),
});
export type ReadFileResult = z.infer<typeof readFileResultSchema>;

export const patchFileSuccessSchema = z.strictObject({
  ok: z.literal(true),
  path: z.string(),
  added: z.number().int().describe('Lines added.'),
  removed: z.number().int().describe('Lines removed.'),
  hunks: z.number().int(),
  diff: z.string().describe('Unified diff of the change.'),
  sha256: z.string().describe('Of the patched file: the expected_sha256 of a later write or patch.'),
  review: reviewOutcomeSchema
    .optional()
    .describe('Set when the person reviewed the change hunk by hunk: what was applied and what was rejected.'),
});
export type PatchFileSuccess = z.infer<typeof patchFileSuccessSchema>;
export const patchFileFailureSchema = z.strictObject({ ok: z.literal(false), error: z.string() });
export type PatchFileFailure = z.infer<typeof patchFileFailureSchema>;
export const patchFileResultSchema = z.discriminatedUnion('ok', [patchFileSuccessSchema, patchFileFailureSchema]);
export type PatchFileResult = z.infer<typeof patchFileResultSchema>;

/** A unified diff and its statistics. */
export const diffSummarySchema = z.strictObject({
  diff: z.string().describe('Unified diff.'),
  added: z.number().int().describe('Lines added.'),
  removed: z.number().int().describe('Lines removed.'),
  hunks: z.number().int(),
  cut: z.boolean().optional().describe('True when the diff stops before the end of the change.'),
});
export type DiffSummary = z.infer<typeof diffSummarySchema>;

export const writeFileResultSchema = z.strictObject({
  path: z.string(),
  created: z.boolean().describe('False when an existing file was overwritten.'),
  bytes: z.number().int(),
  sha256: z.string().describe('Of the new contents: the expected_sha256 of a later write or patch.'),
  change: diffSummarySchema
    .optional()
    .describe('An overwrite: what changed, as much of the diff as a read_file page holds.'),
  review: reviewOutcomeSchema
    .optional()
    .describe('Set when the person reviewed the change hunk by hunk: what was applied and what was rejected.'),
});
export type WriteFileResult = z.infer<typeof writeFileResultSchema>;

export const dirEntrySchema = z.strictObject({
  path: z.string().describe('Relative to the listed folder, "/"-separated; folders end with "/".'),
  kind: z.enum(['file', 'dir', 'symlink', 'other']),
  size: z.number().int().optional().describe('Bytes, for files.'),
});
export type DirEntry = z.infer<typeof dirEntrySchema>;
export const listDirResultSchema = z.strictObject({
  path: z.string(),
  entries: z.array(dirEntrySchema),
  truncated: z.boolean().describe(`True when the listing stopped at ${LIST_MAX_ENTRIES} entries.`),
});
export type ListDirResult = z.infer<typeof listDirResultSchema>;

export const searchMatchSchema = z.strictObject({
  path: z.string().describe('Relative to the workspace root.'),
  line: z.number().int().describe('1-based.'),
  text: z.string().describe(`The matching line, cut to ${SEARCH_LINE_CHARS} characters around the match.`),
});
export type SearchMatch = z.infer<typeof searchMatchSchema>;
export const searchFilesResultSchema = z.strictObject({
  pattern: z.string(),
  matches: z.array(searchMatchSchema),
  files_searched: z.number().int(),
  truncated: z.boolean().describe(`True when the search stopped at ${SEARCH_MAX_MATCHES} matches.`),
});
export type SearchFilesResult = z.infer<typeof searchFilesResultSchema>;

export const execStatusSchema = z.enum([
  'running',
  'exited',
  'signalled',
  'timed_out',
  'cancelled',
  'connection_lost',
  'failed_to_start',
]);
export type ExecStatus = z.infer<typeof execStatusSchema>;

export const execResultSchema = z.strictObject({
  command: z.string(),
  host: z.string().optional().describe('ssh_exec: the host it ran on.'),
  status: execStatusSchema,
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable().describe('The signal that ended the command, e.g. "SIGKILL".'),
  duration_ms: z.number(),
  output: z.string().describe('stdout and stderr interleaved; only the tail when output_bytes is larger.'),
  output_bytes: z.number().int().describe('Total bytes the command printed.'),
  output_path: z.string().optional().describe('A file holding the complete output when only its tail is in output.'),
  left_behind: z
    .strictObject({ stopped: z.number().int(), still_running: z.number().int() })
    .optional()
    .describe(
      'exec: processes the command left running (a daemon, a background job) that were stopped when it ended, and those that could not be.',
    ),
  stop_unconfirmed: z
    .string()
    .optional()
    .describe('ssh_exec: why the remote command could not be confirmed gone after it was stopped.'),
  process: z
    .strictObject({ id: z.string(), pid: z.number().int().nullable(), tty: z.boolean() })
    .optional()
    .describe('exec in the background or a terminal: the process it started (status `running` while it runs).'),
  moved_to_background: z
    .enum(['timed_out', 'person'])
    .optional()
    .describe(
      'exec: the command was still running and moved to the background as `process` instead of being stopped, at its timeout or because the person chose to.',
    ),
});
export type ExecResult = z.infer<typeof execResultSchema>;

/**
 * What happened around a command besides its own end, in one sentence for the model's text and the
 * card: processes it left running that were stopped (or could not be), a remote stop that could not
 * be confirmed. Null when nothing did.
 */
export function execAftermath(result: Pick<ExecResult, 'left_behind' | 'stop_unconfirmed'>): string | null {
  const said: string[] = [];
  const processes = (count: number): string => `${count} process${count === 1 ? '' : 'es'}`;
  const { left_behind: left, stop_unconfirmed: unconfirmed } = result;
  if (left && left.stopped > 0) said.push(`Stopped ${processes(left.stopped)} the command left running`);
  if (left && left.still_running > 0)
    said.push(`${processes(left.still_running)} it left running could not be stopped`);
  if (unconfirmed) said.push(`The remote command could not be confirmed stopped: ${unconfirmed}`);
  return said.length > 0 ? said.join('; ') : null;
}

/** What exec and ssh_exec resolve to: ExecResult plus what the model's text needs. */
export const execRunSchema = execResultSchema.extend({
  output_lines: z.number().int().describe('Lines of the complete output.'),
  error: z.string().optional().describe('Why the command did not start, or how the connection was lost.'),
  spill_error: z.string().optional().describe('Why the complete output could not be kept in a file.'),
  sandbox: z.string().optional().describe('The sandbox it ran in, in a line; absent: it ran outside one.'),
  sandbox_refusal: z.string().optional().describe('What the sandbox kept it from doing, when that shows.'),
});
export type ExecRun = z.infer<typeof execRunSchema>;

/** What a running child is doing, for its card: reported as the call's live progress. */
export const agentStatusSchema = z.object({
  agent: z.string(),
  /** The child's session id (its transcript). */
  session: z.string(),
  /** The tool the child is running now, in its card's words; absent between calls. */
  tool: z.string().optional(),
  steps: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** US dollars so far; absent when the model's prices are unknown. */
  cost: z.number().optional(),
  started_at: z.string(),
});
export type AgentStatus = z.infer<typeof agentStatusSchema>;

/** A progress report: everything captured so far, bounded to a tail window. */
export const toolProgressSchema = z.object({
  /** The newest part of the output, at most the live window. */
  text: z.string(),
  /** Bytes captured before `text` that the window no longer holds. */
  cut_bytes: z.number(),
  /** Total bytes captured so far. */
  total_bytes: z.number(),
  /** An `agent` call's child: what it is doing now (its card's live status). */
  agent: agentStatusSchema.optional(),
  /** A waiting command's preview: how far it has gone (copying the workspace can take a while). */
  preview: previewProgressSchema.optional(),
});
export type ToolProgress = z.infer<typeof toolProgressSchema>;

/** web_fetch's limits: the bytes of a page it reads, and the redirects it follows. */
export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const WEB_FETCH_MAX_REDIRECTS = 5;

/** A page web_fetch read: where it came from, what it was, and its text for the model. */
export const webFetchResultSchema = z.strictObject({
  url: z.string().describe('The URL asked for.'),
  final_url: z.string().describe('The URL the page came from, after redirects.'),
  redirects: z.number().int().describe(`Redirects followed (at most ${WEB_FETCH_MAX_REDIRECTS}).`),
  status: z.number().int().describe('The HTTP status of the page.'),
  content_type: z.string().describe('Its media type (text/html, application/json…); empty when the server named none.'),
  title: z.string().optional().describe("The page's title, when it has one."),
  byline: z.string().optional().describe("The article's author, when the page names one."),
  site_name: z.string().optional().describe('The name of the site, when the page names it.'),
  excerpt: z.string().optional().describe("The article's summary: its description, or its first paragraph."),
  format: z
    .enum(['article', 'page', 'text'])
    .describe(
      "`article`: the page's main text as Markdown; `page`: the whole page as Markdown (no main text was found); `text`: a text or JSON document as it came.",
    ),
  text: z.string().describe('The text the model reads: Markdown, or the document itself.'),
  bytes: z.number().int().describe('Bytes of the page read (after decompression).'),
  cut: z
    .boolean()
    .describe(
      `True when the page was larger than ${WEB_FETCH_MAX_BYTES / 1024 / 1024} MiB and only its start was read.`,
    ),
});
export type WebFetchResult = z.infer<typeof webFetchResultSchema>;
