import { z } from 'zod';
import { execEchoText } from './exec-echo.ts';
import { formatBytes } from './format.ts';
import { reviewOutcomeSchema } from './review.ts';
import {
  diffSummarySchema,
  execResultSchema,
  lineRangeSchema,
  webFetchResultSchema,
  type DiffSummary,
} from './tools.ts';

export type EchoDiff = DiffSummary;

// The card's echo of a call (the panel's route), one shape per kind. A tool declares which kind
// it echoes and builds it from its result; the panel picks the card by `kind` and decodes the echo
// with the same schema. `text` is the uiPreview (at most 4000 characters): the echo of every
// tool without a structured one, and of every failure a tool does not echo itself.
//
// Each kind says once, right after its schema, how it reads as plain text (readEcho below): Copy
// transcript, a card without a view of its own and the command line's transcript all read it so.
//
// To add a kind: its schema (an object with a literal `kind`) and its readEcho, the tool's
// `card.echo` in main, its view in renderer/cards/ registered under the same kind.

export const ECHO_TEXT_LIMIT = 4000;

/** How an echo kind reads as plain text. */
export interface EchoReading<Echo> {
  /** What the card shows, in words: Copy transcript, and a card without a view of its own. */
  text(echo: Echo): string;
  /** One line of it: what `aether run` prints after the call's name (cut to the terminal); default `text`. */
  line?(echo: Echo): string;
}

const readings = new Map<string, { schema: z.ZodType; reading: EchoReading<never> }>();

/** Says how echoes of the kind `schema` declares read as plain text; once a kind. */
export function readEcho<Echo extends { kind: string }>(
  schema: z.ZodType<Echo> & { shape: { kind: z.ZodLiteral<Echo['kind']> } },
  reading: EchoReading<Echo>,
): void {
  const kind = schema.shape.kind.value;
  if (readings.has(kind)) throw new Error(`The echo kind "${kind}" already says how it reads.`);
  readings.set(kind, { schema, reading: reading as EchoReading<never> });
}

/** Decodes an echo with a schema; null when it does not fit (the renderer passes one that remembers). */
export type EchoDecoder = <T>(echo: EchoShape, schema: z.ZodType<T>) => T | null;

const parse: EchoDecoder = (echo, schema) => {
  const parsed = schema.safeParse(echo);
  return parsed.success ? parsed.data : null;
};

/** The echo in words, as its kind reads; an echo of a kind this build does not know, as JSON. */
export function echoPlainText(echo: EchoShape | undefined, decode: EchoDecoder = parse): string {
  if (echo === undefined) return '';
  const read = readingOf(echo, decode);
  return read ? read.reading.text(read.echo) : JSON.stringify(echo, null, 2);
}

/** The echo as one line, as its kind reads (before it is cut); an echo of a kind this build does not know, as compact JSON. */
export function echoLine(echo: EchoShape, decode: EchoDecoder = parse): string {
  const read = readingOf(echo, decode);
  if (!read) return JSON.stringify(echo) ?? '';
  return (read.reading.line ?? read.reading.text)(read.echo);
}

function readingOf(echo: EchoShape, decode: EchoDecoder): { reading: EchoReading<never>; echo: never } | null {
  const declared = typeof echo.kind === 'string' ? readings.get(echo.kind) : undefined;
  const decoded = declared ? decode(echo, declared.schema) : null;
  return declared && decoded !== null ? { reading: declared.reading, echo: decoded as never } : null;
}

export const textEchoSchema = z.object({
  kind: z.literal('text'),
  text: z.string(),
});
export type TextEcho = z.infer<typeof textEchoSchema>;
readEcho(textEchoSchema, { text: (echo) => echo.text });

/** A page of a file as read_file showed it to the model, without its numbers and wrapper. */
export const readFileEchoSchema = z.object({
  kind: z.literal('read-file'),
  path: z.string(),
  range: lineRangeSchema,
  total_lines: z.number().int(),
  content: z.string(),
  truncated: z.boolean(),
});
export type ReadFileEcho = z.infer<typeof readFileEchoSchema>;
readEcho(readFileEchoSchema, { text: (echo) => echo.content });

export const patchEchoSchema = diffSummarySchema.extend({
  kind: z.literal('patch'),
  path: z.string(),
  /** Reviewed hunk by hunk before it was written (edited texts cut to a few lines). */
  review: reviewOutcomeSchema.optional(),
});
export type PatchEcho = z.infer<typeof patchEchoSchema>;
readEcho(patchEchoSchema, {
  text: (echo) => echo.diff,
  line: (echo) => `+${echo.added} −${echo.removed} in ${echo.path}`,
});

/** What write_file wrote: a new file's first lines, or the diff of an overwrite. */
export const writeEchoSchema = z.object({
  kind: z.literal('write'),
  path: z.string(),
  created: z.boolean(),
  bytes: z.number().int(),
  /** A new file: its text from line 1, bounded like a read_file page (lines cut as read_file cuts them). */
  content: z
    .object({
      text: z.string(),
      total_lines: z.number().int(),
      /** True when lines follow the ones in `text`. */
      truncated: z.boolean(),
    })
    .optional(),
  /** An overwrite: what changed. */
  change: diffSummarySchema.optional(),
  /** Reviewed hunk by hunk before it was written (edited texts cut to a few lines). */
  review: reviewOutcomeSchema.optional(),
});
export type WriteEcho = z.infer<typeof writeEchoSchema>;
readEcho(writeEchoSchema, {
  text: (echo) => echo.change?.diff ?? echo.content?.text ?? '',
  line: (echo) =>
    echo.change
      ? `+${echo.change.added} −${echo.change.removed} in ${echo.path}`
      : `${echo.created ? 'created' : 'wrote'} ${echo.path} (${echo.bytes} bytes)`,
});

/** How a command ended and the end of its output, a few KiB at most whatever it printed. */
export const execEchoSchema = z.object({
  ...execResultSchema.pick({
    command: true,
    host: true,
    status: true,
    exit_code: true,
    signal: true,
    duration_ms: true,
    output_bytes: true,
    output_path: true,
    left_behind: true,
    stop_unconfirmed: true,
    process: true,
    moved_to_background: true,
  }).shape,
  kind: z.literal('exec'),
  /** Lines of the complete output. */
  output_lines: z.number().int(),
  /** The last (at most 4000) characters of the output the model got. */
  output: z.string(),
  /** True when `output` is only the end of what the command printed. */
  output_cut: z.boolean(),
  /** Why the command did not start, or how the connection was lost. */
  error: z.string().optional(),
  /** The sandbox it ran in, in a line (absent: outside one), and what the sandbox kept it from doing. */
  sandbox: z.string().max(2000).optional(),
  sandbox_refusal: z.string().max(2000).optional(),
});
export type ExecEcho = z.infer<typeof execEchoSchema>;
readEcho(execEchoSchema, { text: execEchoText, line: commandLine });

/** A run_code program: its final content (logs, then the value), or nothing at all. */
export const codeEchoSchema = z.object({
  kind: z.literal('code'),
  /** The model's text of the run, at most 4000 characters. */
  output: z.string(),
  /** True when the program logged nothing and returned nothing. */
  empty: z.boolean(),
});
export type CodeEcho = z.infer<typeof codeEchoSchema>;
readEcho(codeEchoSchema, { text: (echo) => (echo.empty ? '' : echo.output), line: (echo) => echo.output });

/** A binary resource (an embedded blob) or a resource link of an MCP result, as its card shows it. */
export const mcpResourceEchoSchema = z.object({
  /** `blob`: its bytes came with the result; `link`: the server only named it. */
  type: z.enum(['blob', 'link']),
  uri: z.string(),
  name: z.string().optional(),
  mime_type: z.string().optional(),
  /** Its size: a blob's own, a link's as the server gave it. */
  bytes: z.number().int().nonnegative().optional(),
  description: z.string().optional(),
  /** The blob's bytes in the session's folder, by their sha256 (`tool:blob` reads them for Save…). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** An image blob small enough for the card, as images are (base64). */
  data: z.string().optional(),
});
export type McpResourceEcho = z.infer<typeof mcpResourceEchoSchema>;

/** A call of an MCP server's tool: which server and tool, what came back, and its images (small ones only). */
export const mcpEchoSchema = z.object({
  kind: z.literal('mcp'),
  server: z.string(),
  tool: z.string(),
  /** The model's text of the result, at most 4000 characters. */
  text: z.string(),
  /** True when `text` is only the start of what the model got. */
  text_cut: z.boolean(),
  /** The images the result holds, each at most 256 KiB of base64; `omitted` counts the rest. */
  images: z.array(z.object({ mime_type: z.string(), data: z.string() })),
  images_omitted: z.number().int(),
  /** The audio clips it holds, each at most 256 KiB of base64 (absent in echoes written before audio was shown). */
  audio: z.array(z.object({ mime_type: z.string(), data: z.string() })).optional(),
  audio_omitted: z.number().int().optional(),
  /** Its binary resources and resource links (absent in echoes written before they were shown); `omitted` counts the rest. */
  resources: z.array(mcpResourceEchoSchema).optional(),
  resources_omitted: z.number().int().optional(),
  /** The server said the call failed (`isError`). */
  is_error: z.boolean(),
});
export type McpEcho = z.infer<typeof mcpEchoSchema>;
readEcho(mcpEchoSchema, { text: (echo) => echo.text, line: (echo) => `${echo.server} › ${echo.tool}: ${echo.text}` });

/** A page web_fetch read: its title and host, how big it was, and the start of what the model got. */
export const webFetchEchoSchema = z.object({
  ...webFetchResultSchema.pick({
    url: true,
    final_url: true,
    redirects: true,
    status: true,
    content_type: true,
    title: true,
    site_name: true,
    format: true,
    bytes: true,
    cut: true,
  }).shape,
  kind: z.literal('web-fetch'),
  /** The host the page came from (after redirects). */
  host: z.string(),
  /** Characters of text the model got. */
  text_chars: z.number().int(),
  /** The page's own summary, or the start of its text, at most 300 characters. */
  excerpt: z.string(),
});
export type WebFetchEcho = z.infer<typeof webFetchEchoSchema>;
readEcho(webFetchEchoSchema, {
  text: (echo) => [echo.title ?? echo.final_url, echo.final_url, echo.excerpt].filter(Boolean).join('\n'),
  line: webPageLine,
});

/** Every echo kind this build knows. A newer tool's kind arrives as an object with its own `kind`. */
export const toolEchoSchema = z.discriminatedUnion('kind', [
  textEchoSchema,
  readFileEchoSchema,
  patchEchoSchema,
  writeEchoSchema,
  execEchoSchema,
  codeEchoSchema,
  mcpEchoSchema,
  webFetchEchoSchema,
]);
export type ToolEcho = z.infer<typeof toolEchoSchema>;
export type ToolEchoKind = ToolEcho['kind'];

/** The least every echo is: an object tagged by kind. */
export const echoShapeSchema = z.looseObject({ kind: z.string().min(1) });
export type EchoShape = z.infer<typeof echoShapeSchema>;

/**
 * How a call describes itself (`describe(args)` in main): the card's subtitle and its tooltip, and
 * the approval question's title and detail. Sent in tool_started, so no view reads arguments.
 */
export const callDescriptionSchema = z.object({
  /** One line saying what the call does: `Read src/app.ts`, `Run a command on web1`. */
  title: z.string(),
  /** The card's short label: a file's basename, a command line, a search pattern. */
  subtitle: z.string(),
  /** Exactly what is asked: a path, a command, the text to write, a program. */
  detail: z.string().optional(),
  /** The workspace-relative path the call is about, shown when the subtitle is its basename. */
  path: z.string().optional(),
});
export type CallDescription = z.infer<typeof callDescriptionSchema>;

/** A command's echo in a few words: `exit 0 · 12 lines`, `timed out · 3 lines`. */
function commandLine(echo: ExecEcho): string {
  const why = echo.error ?? null;
  const ended: Record<ExecEcho['status'], string> = {
    running: echo.process ? `running in the background as ${echo.process.id}` : 'running',
    exited: `exit ${echo.exit_code ?? 'unknown'}`,
    signalled: echo.signal ? `killed ${echo.signal}` : 'killed',
    timed_out: 'timed out',
    cancelled: 'cancelled',
    connection_lost: why ? `connection lost (${why})` : 'connection lost',
    failed_to_start: why ? `failed to start: ${why}` : 'failed to start',
  };
  const lines = echo.output_lines;
  const output = lines === 0 ? 'no output' : `${lines} ${lines === 1 ? 'line' : 'lines'}`;
  const saved = echo.output_path ? ` (complete output in ${echo.output_path})` : '';
  // What the sandbox kept the command from doing, since its output alone only says it failed.
  return `${ended[echo.status]} · ${output}${saved}${echo.sandbox_refusal ? ` · ${echo.sandbox_refusal}` : ''}`;
}

/** A page in a few words: `“Title” · docs.python.org · text/html · 84.2 KiB`. */
function webPageLine(echo: WebFetchEcho): string {
  const parts = [echo.title ? `“${echo.title}”` : echo.final_url, echo.host, echo.content_type || 'no type'];
  parts.push(formatBytes(echo.bytes) + (echo.cut ? ' (cut at the size limit)' : ''));
  if (echo.redirects > 0) parts.push(`via ${echo.redirects} ${echo.redirects === 1 ? 'redirect' : 'redirects'}`);
  return parts.join(' · ');
}
