import type { ExecEcho, ExecStatus } from '../../protocol/tools.ts';
import { formatBytes, isRecord, resultText } from './decode.ts';
import { parseExecText, type ExecText } from './exec-text.ts';

// What a command card shows once the command ended. The echo of a command is structured
// (ExecEcho: how it ended and the end of its output); events recorded before it was, and failures
// of the call itself (a refusal, invalid arguments), are text, read back by parseExecText.

const STATUSES: ReadonlySet<string> = new Set<ExecStatus>([
  'exited',
  'signalled',
  'timed_out',
  'cancelled',
  'connection_lost',
  'failed_to_start',
]);

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/** The structured echo of a command, or null when the echo is something else (text, `{ error, content }`). */
export function asExecEcho(result: unknown): ExecEcho | null {
  if (!isRecord(result) || typeof result['status'] !== 'string' || !STATUSES.has(result['status'])) return null;
  const { exit_code: exitCode, signal } = result;
  if (exitCode !== null && !isInteger(exitCode)) return null;
  if (signal !== null && typeof signal !== 'string') return null;
  if (typeof result['output'] !== 'string' || typeof result['output_cut'] !== 'boolean') return null;
  if (
    !isInteger(result['output_bytes']) ||
    !isInteger(result['output_lines']) ||
    typeof result['duration_ms'] !== 'number'
  )
    return null;
  if (![result['command'], result['host'], result['output_path'], result['error']].every(isOptionalString)) return null;
  return result as unknown as ExecEcho;
}

/** The badge: `exit 2`, `killed SIGSEGV`, `timed out`, `cancelled`, `connection lost`, `failed to start`. */
function label(echo: ExecEcho): string {
  switch (echo.status) {
    case 'exited':
      return `exit ${echo.exit_code ?? 'unknown'}`;
    case 'signalled':
      return echo.signal ? `killed ${echo.signal}` : 'killed';
    case 'timed_out':
      return 'timed out';
    case 'cancelled':
      return 'cancelled';
    case 'connection_lost':
      return 'connection lost';
    case 'failed_to_start':
      return 'failed to start';
  }
}

/** The status sentence, without the duration (the header shows it), in the words the model read. */
function reason(echo: ExecEcho): string {
  const stoppedBy = echo.signal ? ` (${echo.signal})` : '';
  switch (echo.status) {
    case 'exited':
      return `Exit code ${echo.exit_code ?? 'unknown'}`;
    case 'signalled':
      return `Killed by ${echo.signal ?? 'a signal'}`;
    case 'timed_out':
      return `Timed out and stopped${stoppedBy}; output so far below`;
    case 'cancelled':
      return `Cancelled and stopped${stoppedBy}; output so far below`;
    case 'connection_lost':
      return `Connection ${echo.host ? `to ${echo.host} ` : ''}lost (${echo.error ?? 'the link dropped'}); exit status unknown`;
    case 'failed_to_start':
      return `Failed to start: ${echo.error ?? 'unknown error'}`;
  }
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** The note over an output that is only the end of what the command printed. */
function cutNote(echo: ExecEcho): string | null {
  if (!echo.output_cut) return null;
  const shownBytes = new TextEncoder().encode(echo.output).length;
  const where = echo.output_path ? `; the complete output is in ${echo.output_path}` : '';
  return `Showing the last ${lineCount(echo.output)} of ${echo.output_lines} lines (${formatBytes(shownBytes)} of ${formatBytes(echo.output_bytes)})${where}.`;
}

export function execTextOfEcho(echo: ExecEcho): ExecText {
  const sentence = reason(echo);
  const noOutput = echo.output_bytes === 0 && echo.output === '';
  return {
    recognised: true,
    status: sentence,
    label: label(echo),
    reason: sentence,
    // `exit 2` and `killed SIGSEGV` say all their sentence says; the others carry why or what failed.
    explains: echo.status !== 'exited' && echo.status !== 'signalled',
    exitCode: echo.status === 'exited' ? echo.exit_code : null,
    note: noOutput ? null : cutNote(echo),
    output: echo.output,
    noOutput,
  };
}

/** The parts of a finished command's card, from its structured echo or, failing that, its text. */
export function execParts(result: unknown): ExecText {
  const echo = asExecEcho(result);
  return echo ? execTextOfEcho(echo) : parseExecText(resultText(result));
}

/** A command's echo as text (Copy transcript): the status sentence, the note, then the output. */
export function execEchoText(result: unknown): string | null {
  const echo = asExecEcho(result);
  if (!echo) return null;
  const parts = execTextOfEcho(echo);
  if (parts.noOutput) return `${parts.reason}\n(no output)`;
  return [parts.reason, ...(parts.note ? [parts.note] : []), parts.output].join('\n');
}
