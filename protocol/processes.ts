import { z } from 'zod';

// Commands that keep running: `exec {background: true}` or `{tty: true}` starts one, and the
// process tools read its output, write to its input, stop it and list them. Each belongs to its
// session: it outlives the turn that started it, not the session. Their arguments, results and
// the durable record of each one's start and end are declared here once.

export const PROCESS_OUTPUT_DEFAULT_WAIT_S = 30;
export const PROCESS_OUTPUT_MAX_WAIT_S = 600;
/** The most of a process's output one read returns to the model. */
export const PROCESS_READ_MAX_BYTES = 32 * 1024;

/** `left_running`: `aether run --keep-processes` ended and left it running, on its own. */
export const processStateSchema = z.enum(['running', 'exited', 'stopped', 'failed_to_start', 'left_running']);
export type ProcessState = z.infer<typeof processStateSchema>;

/**
 * Who or what stopped a process: the model (process_stop), the person, its session closing, the app
 * ending; `app_closed`: the app was gone (a crash, SIGKILL) and its next start ended what it left.
 */
export const processEndReasonSchema = z.enum(['model', 'person', 'session_closed', 'app_ended', 'app_closed']);
export type ProcessEndReason = z.infer<typeof processEndReasonSchema>;

const processIdArg = z
  .string()
  .regex(/^p\d+$/, 'is a process id such as p1, as exec {background: true} returned it')
  .describe('The process id exec returned (p1, p2 …).');

export const processInfoSchema = z.strictObject({
  id: z.string(),
  /** The exec call that started it. */
  call_id: z.string(),
  command: z.string(),
  tty: z.boolean().describe('True when it runs in a terminal (its output is read as the screen).'),
  pid: z.number().int().nullable(),
  state: processStateSchema,
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  started_at: z.string().describe('ISO time it started.'),
  uptime_ms: z.number().int().describe('How long it ran, or has run so far.'),
  output_bytes: z.number().int().describe('Bytes it printed in all.'),
  output_lines: z.number().int(),
  ports: z.array(z.number().int()).describe('TCP ports it listens on.'),
  last_line: z.string().describe('Its last line of output, cut to 200 characters.'),
  end_reason: processEndReasonSchema.optional(),
  /** Why it could not start. */
  error: z.string().optional(),
  /** Processes it left running when it ended, stopped with it (and any that could not be). */
  left_behind: z.strictObject({ stopped: z.number().int(), still_running: z.number().int() }).optional(),
  /** The files in the session's folder holding its output (the newest 16 MiB by default). */
  output_files: z.array(z.string()).optional(),
  /** Left running: the file its output goes on into. */
  output_after: z.string().optional(),
});
export type ProcessInfo = z.infer<typeof processInfoSchema>;

export const processOutputArgsSchema = z.object({
  id: processIdArg,
  wait_for: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'A regular expression: wait until a line of new output matches it (a dev server\'s "ready" line), the process exits, or timeout_s passes.',
    ),
  timeout_s: z
    .number()
    .positive()
    .max(PROCESS_OUTPUT_MAX_WAIT_S)
    .optional()
    .describe(`Seconds to wait with wait_for (default ${PROCESS_OUTPUT_DEFAULT_WAIT_S}).`),
  since: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Read from this byte offset (a next_since an earlier read returned) instead of where the last read stopped.',
    ),
  tail: z
    .number()
    .int()
    .min(1)
    .max(2000)
    .optional()
    .describe('Only the last this many lines of what is kept, whatever was read before.'),
});
export type ProcessOutputArgs = z.infer<typeof processOutputArgsSchema>;

export const processInputArgsSchema = z.object({
  id: processIdArg,
  text: z
    .string()
    .min(1)
    .max(64 * 1024)
    .describe(
      'What to type: end a line with \\n. In a terminal, \\n is sent as Enter, \\u0003 is Ctrl-C and \\u0004 Ctrl-D.',
    ),
});
export type ProcessInputArgs = z.infer<typeof processInputArgsSchema>;

export const processStopArgsSchema = z.object({ id: processIdArg });
export type ProcessStopArgs = z.infer<typeof processStopArgsSchema>;

export const processListArgsSchema = z.object({});
export type ProcessListArgs = z.infer<typeof processListArgsSchema>;

export const processOutputResultSchema = z.strictObject({
  process: processInfoSchema,
  output: z.string().describe('New output since the last read (or since `since`), or the last `tail` lines.'),
  /** Offset of the first byte of `output`. */
  from: z.number().int(),
  next_since: z.number().int().describe('Where the next read goes on from.'),
  dropped_bytes: z
    .number()
    .int()
    .describe('Bytes between where the read was asked to start and `from` that this read does not show.'),
  screen: z.string().optional().describe('A terminal: its screen as text, as a person would see it now.'),
  waited: z.enum(['matched', 'exited', 'timed_out']).optional(),
  matched_line: z.string().optional(),
});
export type ProcessOutputResult = z.infer<typeof processOutputResultSchema>;

export const processInputResultSchema = z.strictObject({
  process: processInfoSchema,
  bytes: z.number().int().describe('Bytes written to its input.'),
});
export type ProcessInputResult = z.infer<typeof processInputResultSchema>;

export const processStopResultSchema = z.strictObject({
  process: processInfoSchema,
  /** False when it had already ended before the stop. */
  stopped: z.boolean(),
});
export type ProcessStopResult = z.infer<typeof processStopResultSchema>;

export const processListResultSchema = z.strictObject({ processes: z.array(processInfoSchema) });
export type ProcessListResult = z.infer<typeof processListResultSchema>;

/** A process's live view in the panel: its newest output, and its screen when it runs in a terminal. */
export interface ProcessView {
  process: ProcessInfo;
  /** The newest output (at most 64 KiB), escape codes left in for the view to drop. */
  text: string;
  /** Bytes printed before `text`. */
  before: number;
  screen?: string;
}

/** How a process ended (or that it runs), in a few words: `running`, `exit 0`, `stopped by the model`. */
export function processStateText(
  info: Pick<ProcessInfo, 'state' | 'exit_code' | 'signal' | 'end_reason' | 'error'>,
): string {
  switch (info.state) {
    case 'running':
      return 'running';
    case 'exited':
      return info.signal ? `killed by ${info.signal}` : `exit ${info.exit_code ?? 'unknown'}`;
    case 'failed_to_start':
      return `failed to start${info.error ? `: ${info.error}` : ''}`;
    case 'left_running':
      return 'left running when the run ended';
    case 'stopped':
      return STOPPED_BY[info.end_reason ?? 'model'];
  }
}

/** A process's start or end in one line (`aether run`): `▶ p1 node server.mjs (pid 412)`, `■ p1 exit 0 after 3.1 s · node server.mjs`. */
export function processStateLine(info: ProcessInfo, duration: (ms: number) => string): string {
  if (info.state === 'running')
    return `▶ ${info.id} ${info.command}${info.pid !== null ? ` (pid ${info.pid}${info.tty ? ', terminal' : ''})` : ''}`;
  if (info.state === 'left_running')
    return `▷ ${info.id} left running${info.pid !== null ? ` as pid ${info.pid}` : ''}${info.ports.map((port) => ` :${port}`).join('')} · ${info.command}`;
  return `■ ${info.id} ${processStateText(info)} after ${duration(info.uptime_ms)} · ${info.command}`;
}

const STOPPED_BY: Record<ProcessEndReason, string> = {
  model: 'stopped by the model',
  person: 'stopped by you',
  session_closed: 'stopped when the session closed',
  app_ended: 'ended with the app',
  app_closed: 'stopped when the app closed',
};

// Escape sequences a terminal interprets (colours, cursor moves, titles) and carriage returns that
// redraw a line: left out where output is read as plain text (a wait_for pattern, the panel's view).
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|\r(?!\n)/g;

export function withoutEscapes(text: string): string {
  return text.replace(ESCAPES, '');
}
