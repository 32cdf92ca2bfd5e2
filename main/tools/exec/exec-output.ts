import type { ExecEcho } from '../../../protocol/echo.ts';
import { execAftermath, type ExecRun } from '../../../protocol/tools.ts';
import {
  LIVE_WINDOW_BYTES,
  OutputAccumulator,
  utf8Suffix,
  type AccumulatorLimits,
  type FinalOutput,
} from './output-accumulator.ts';
import { movedSentence, runningSentence } from '../../../protocol/exec-echo.ts';
import { formatBytes, formatDuration } from '../../../protocol/format.ts';
import { countLines, DEFAULT_SPILL_LIMITS, spillPath, type SpillLimits } from '../policies.ts';
import { ProgressReporter, type Clock } from '../progress-reporter.ts';
import type { ToolContext } from '../tool.ts';

// What `exec` and `ssh_exec` share: capturing a command's output (accumulator + throttled reports)
// and the model-facing rendering of its result. The rendering stays inside the pipeline's spill
// limits by construction — the status line, a note, and a tail — so the spill policy never writes
// the same output a second time; the complete output is already in the accumulator's file.

/** Room kept for the status line and the note, so they never push the content over the limits. */
const HEADER_BYTES = 2048;
const HEADER_LINES = 8;
const MAX_MESSAGE_CHARS = 500;

/** What exec and ssh_exec resolve to, and its schema, live in protocol/tools.ts. */
export { execResultSchema, execRunSchema, type ExecRun } from '../../../protocol/tools.ts';

export function accumulatorLimits(spill: SpillLimits = DEFAULT_SPILL_LIMITS): AccumulatorLimits {
  const memoryBytes = Math.max(1024, spill.maxBytes - HEADER_BYTES);
  return {
    memoryBytes,
    memoryLines: Math.max(1, spill.maxLines - HEADER_LINES),
    tailBytes: memoryBytes,
    liveBytes: LIVE_WINDOW_BYTES,
  };
}

export interface CaptureOptions {
  limits?: SpillLimits;
  clock?: Clock;
}

export interface OutputCapture {
  readonly accumulator: OutputAccumulator;
  readonly reporter: ProgressReporter;
  /** Keeps a chunk and tells the reporter. False when the source should pause until `drained()`. */
  append(chunk: Buffer): boolean;
  drained(): Promise<void>;
  /** The last report, then the final output, decoded once. */
  finish(): Promise<FinalOutput>;
}

export function captureOutput(
  ctx: Pick<ToolContext, 'callId' | 'sessionDir' | 'report'>,
  options: CaptureOptions = {},
): OutputCapture {
  const accumulator = new OutputAccumulator(spillPath(ctx.sessionDir, ctx.callId), accumulatorLimits(options.limits));
  const reporter = new ProgressReporter(
    () => accumulator.progress(),
    (progress) => ctx.report(progress),
    options.clock,
  );
  return {
    accumulator,
    reporter,
    append(chunk) {
      const keepGoing = accumulator.append(chunk);
      reporter.notify();
      return keepGoing;
    },
    drained: () => accumulator.drained(),
    async finish() {
      const final = await accumulator.finish();
      reporter.flush();
      return final;
    },
  };
}

/** The part of the final output the model gets: all of it, or a tail within the limits. */
export function outputFields(
  final: FinalOutput,
  limits: SpillLimits = DEFAULT_SPILL_LIMITS,
): Pick<ExecRun, 'output' | 'output_bytes' | 'output_lines' | 'output_path' | 'spill_error'> {
  const { memoryLines, memoryBytes } = accumulatorLimits(limits);
  let text = final.text;
  if (final.cut || countLines(text) > memoryLines) {
    text = lastLines(text, memoryLines);
    // Start the tail on a line of its own when one is there to start on.
    const newline = text.indexOf('\n');
    if (final.cut && newline !== -1 && newline < text.length - 1) text = text.slice(newline + 1);
  }
  // Bytes that are not UTF-8 decode to U+FFFD (3 bytes each) and could push a spilled tail past the
  // limit; the spill policy would then write over the complete output (or, when the file could not
  // be written, cut the tail a second time), so cut the tail instead.
  if ((final.path || final.spillError) && Buffer.byteLength(text) > memoryBytes) text = utf8Suffix(text, memoryBytes);
  return {
    output: text,
    output_bytes: final.totalBytes,
    output_lines: final.totalLines,
    ...(final.path ? { output_path: final.path } : {}),
    ...(final.spillError ? { spill_error: final.spillError } : {}),
  };
}

function lastLines(text: string, count: number): string {
  const body = text.endsWith('\n') ? text.length - 1 : text.length;
  let start = body;
  for (let line = 0; line < count; line += 1) {
    const previous = text.lastIndexOf('\n', start - 1);
    if (previous === -1 || start === 0) return text;
    start = previous;
  }
  return text.slice(start + 1);
}

/** How a command ended, as its runner (a local process group or an SSH channel) saw it. */
export interface CommandEnd {
  status: ExecRun['status'];
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** Why it did not start, or how the connection was lost. */
  error?: string;
  /** exec: what the command left running when it ended, stopped or not. */
  leftBehind?: { stopped: number; still_running: number };
  /** ssh_exec: why a stopped remote command could not be confirmed gone. */
  stopUnconfirmed?: string;
  /** exec: the command moved to the background as it ran (at its timeout, or asked by the person). */
  moved?: { id: string; pid: number | null; why: 'timed_out' | 'person' };
}

/** The structured result of one command: what ran (and where), how it ended, the output kept of it. */
export function execRunOf(
  ran: { command: string; host?: string },
  end: CommandEnd,
  final: FinalOutput,
  limits?: SpillLimits,
): ExecRun {
  return {
    command: ran.command,
    ...(ran.host !== undefined ? { host: ran.host } : {}),
    status: end.status,
    exit_code: end.exitCode,
    signal: end.signal,
    duration_ms: end.durationMs,
    ...outputFields(final, limits),
    ...(end.error ? { error: end.error } : {}),
    ...(end.leftBehind ? { left_behind: end.leftBehind } : {}),
    ...(end.stopUnconfirmed ? { stop_unconfirmed: end.stopUnconfirmed } : {}),
    ...(end.moved
      ? { process: { id: end.moved.id, pid: end.moved.pid, tty: false }, moved_to_background: end.moved.why }
      : {}),
  };
}

export function execIsError(result: ExecRun): boolean {
  // A command that keeps running in the background started well: it has no exit code yet.
  if (result.status === 'running') return false;
  return result.status !== 'exited' || result.exit_code !== 0;
}

/** Model-facing text: a status line, a note when the output was cut, then the output (or its tail). */
export function renderExec(result: ExecRun): string {
  const lines = [statusLine(result)];
  const after = execAftermath({
    ...result,
    ...(result.stop_unconfirmed ? { stop_unconfirmed: clip(result.stop_unconfirmed) } : {}),
  });
  if (after) lines.push(`[${after}.]`);
  if (result.sandbox_refusal)
    lines.push(
      `[${result.sandbox_refusal} If it must run so, call exec again with "outside_sandbox": true; the person will be asked.]`,
    );
  const shownBytes = Buffer.byteLength(result.output);
  if (result.output_bytes === 0) {
    lines.push('(no output)');
    return lines.join('\n');
  }
  if (shownBytes < result.output_bytes && result.process) {
    const reads = `process_output {"id": "${result.process.id}"} reads all of it`;
    lines.push(`[Showing the newest ${formatBytes(shownBytes)} of ${formatBytes(result.output_bytes)}; ${reads}.]`);
  } else if (shownBytes < result.output_bytes) {
    const shownLines = countLines(result.output);
    const firstLine = Math.max(1, result.output_lines - shownLines + 1);
    const shown = `[Showing the last ${shownLines} lines (${formatBytes(shownBytes)}) of ${result.output_lines} lines (${formatBytes(result.output_bytes)}).`;
    lines.push(
      result.output_path
        ? `${shown} The complete output is in ${result.output_path}. Read it with read_file {"path": ${JSON.stringify(result.output_path)}, "offset": 1} (this tail starts at line ${firstLine}), or search it with search_files.]`
        : `${shown} The complete output could not be kept: ${clip(result.spill_error ?? 'unknown error')}.]`,
    );
  }
  return `${lines.join('\n')}\n${result.output}`;
}

/** At most this many characters of the output go to the card's echo. */
export const ECHO_OUTPUT_CHARS = 4000;
/** ... and at most this many bytes once written as JSON, so escapes and UTF-8 cannot swell the echo. */
const ECHO_OUTPUT_JSON_BYTES = 4200;
/** The command, host and error are reminders (the card's subtitle comes from the arguments). */
const ECHO_COMMAND = { chars: 200, bytes: 300 };
const ECHO_HOST = { chars: 100, bytes: 100 };
const ECHO_ERROR = { chars: MAX_MESSAGE_CHARS, bytes: 300 };

/**
 * The card's echo (ToolDefinition.echo): how the command ended and the END of its output, which is
 * what a person looks at, within ~5 KiB of JSON. The card's subtitle comes from the call's
 * description, so the command here is only a reminder and is cut.
 */
export function execEcho(result: ExecRun): ExecEcho {
  const start = echoTailStart(result.output);
  const output = result.output.slice(start);
  return {
    kind: 'exec',
    command: echoHead(result.command, ECHO_COMMAND),
    ...(result.host !== undefined ? { host: echoHead(result.host, ECHO_HOST) } : {}),
    status: result.status,
    exit_code: result.exit_code,
    signal: result.signal,
    duration_ms: result.duration_ms,
    output_bytes: result.output_bytes,
    output_lines: result.output_lines,
    ...(result.output_path ? { output_path: result.output_path } : {}),
    output,
    // The model's own text may already be only a tail (renderExec's note says so).
    output_cut: start > 0 || Buffer.byteLength(result.output) < result.output_bytes,
    ...(result.error ? { error: echoHead(clip(result.error), ECHO_ERROR) } : {}),
    ...(result.left_behind ? { left_behind: result.left_behind } : {}),
    ...(result.stop_unconfirmed ? { stop_unconfirmed: echoHead(clip(result.stop_unconfirmed), ECHO_ERROR) } : {}),
    ...(result.sandbox ? { sandbox: echoHead(result.sandbox, ECHO_ERROR) } : {}),
    ...(result.sandbox_refusal ? { sandbox_refusal: echoHead(result.sandbox_refusal, ECHO_ERROR) } : {}),
    ...(result.process ? { process: result.process } : {}),
    ...(result.moved_to_background ? { moved_to_background: result.moved_to_background } : {}),
  };
}

/** `text`, or as much of its start as fits the budget followed by `…`. */
function echoHead(text: string, budget: { chars: number; bytes: number }): string {
  let end = 0;
  let bytes = 0;
  // One character and three bytes are kept for the ellipsis.
  const chars = text.length > budget.chars ? budget.chars - 1 : budget.chars;
  while (end < text.length) {
    const [width, cost] = unitAt(text, end, 1);
    if (end + width > chars || bytes + cost > budget.bytes - 3) break;
    end += width;
    bytes += cost;
  }
  return end === text.length ? text : `${text.slice(0, end)}…`;
}

/**
 * Where the echo's tail of `text` starts: as far back as the character and JSON budgets allow,
 * never inside a surrogate pair, and on a line of its own when that drops little.
 */
function echoTailStart(text: string): number {
  let start = text.length;
  let bytes = 0;
  while (start > 0) {
    const [width, cost] = unitAt(text, start - 1, -1);
    if (text.length - start + width > ECHO_OUTPUT_CHARS || bytes + cost > ECHO_OUTPUT_JSON_BYTES) break;
    start -= width;
    bytes += cost;
  }
  if (start === 0 || text[start - 1] === '\n') return start;
  const newline = text.indexOf('\n', start);
  const partial = newline - start;
  // A partial first line is dropped when it is short beside the rest; one huge line stays cut.
  if (newline !== -1 && newline < text.length - 1 && partial <= (text.length - start) / 4) return newline + 1;
  return start;
}

/**
 * The character at `index` (read forwards or, with -1, backwards from it): its width in code units,
 * 2 for a surrogate pair, and the bytes it takes in JSON.stringify's UTF-8 output.
 */
function unitAt(text: string, index: number, direction: 1 | -1): [width: number, bytes: number] {
  const code = text.charCodeAt(index);
  const other = text.charCodeAt(index + direction);
  const pair =
    direction === 1 ? isHighSurrogate(code) && isLowSurrogate(other) : isLowSurrogate(code) && isHighSurrogate(other);
  return pair ? [2, 4] : [1, jsonBytes(code)];
}

/** Bytes one UTF-16 code unit (not part of a pair) takes in JSON.stringify's UTF-8 output. */
function jsonBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (isHighSurrogate(code) || isLowSurrogate(code)) return 6; // A lone surrogate is written as \udxxx.
  return 3;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** First line of the content; the card shows it as the badge (`Exit code 0 · 1.2 s`). */
export function statusLine(result: ExecRun): string {
  const took = formatDuration(result.duration_ms);
  switch (result.status) {
    case 'running':
      if (result.moved_to_background)
        return `${movedSentence(result)}; its output so far below. Read more with process_output {"id": "${result.process?.id ?? ''}"} (it can wait_for a line), end it with process_stop.`;
      return `${runningSentence(result)}; its first output below. Read more with process_output {"id": "${result.process?.id ?? ''}"} (it can wait_for a line), type into it with process_input, end it with process_stop.`;
    case 'exited':
      return `Exit code ${result.exit_code ?? 'unknown'} · ${took}`;
    case 'signalled':
      return `Killed by ${result.signal ?? 'a signal'} · ${took}`;
    case 'timed_out':
      return `Timed out and stopped${result.signal ? ` (${result.signal})` : ''}; output so far below · ${took}`;
    case 'cancelled':
      return `Cancelled and stopped${result.signal ? ` (${result.signal})` : ''}; output so far below · ${took}`;
    case 'connection_lost':
      return `Connection ${result.host ? `to ${result.host} ` : ''}lost (${clip(result.error ?? 'the link dropped')}); exit status unknown · ${took}`;
    case 'failed_to_start':
      return `Failed to start: ${clip(result.error ?? 'unknown error')}`;
  }
}

function clip(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS - 1)}…` : oneLine;
}
