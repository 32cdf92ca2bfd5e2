import type { ExecEcho } from './echo.ts';
import { execAftermath } from './tools.ts';
import { formatBytes, utf8Length } from './format.ts';

// What a command card shows once the command ended, from its structured echo (ExecEcho: how it
// ended and the end of its output): the badge, the sentence saying why, the note over a tail; and
// the same in plain text (Copy transcript).

export interface ExecParts {
  /** The badge: `exit 2`, `killed SIGSEGV`, `timed out`, `cancelled`, `connection lost`, `failed to start`. */
  label: string;
  /** The status sentence without its duration (the card's header shows the time once). */
  reason: string;
  /** Whether the sentence tells more than the label (why it stopped, what failed), so the card shows it. */
  explains: boolean;
  /** The exit code when the command exited; null when it was killed, timed out or never ran. */
  exitCode: number | null;
  note: string | null;
  output: string;
  noOutput: boolean;
  /** The sandbox it ran in (absent: outside one), and what the sandbox kept it from doing. */
  sandbox: string | null;
  refusal: string | null;
}

function label(echo: ExecEcho): string {
  switch (echo.status) {
    case 'running':
      return echo.process ? `running · ${echo.process.id}` : 'running';
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
    case 'running':
      return echo.moved_to_background ? movedSentence(echo) : runningSentence(echo);
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

/** A command that keeps running: where it runs, and how the model reaches it. */
export function runningSentence(ran: {
  process?: { id: string; pid: number | null; tty: boolean } | undefined;
}): string {
  const process = ran.process;
  if (!process) return 'Running';
  const where = process.tty ? 'in a terminal' : 'in the background';
  return `Running ${where} as ${process.id}${process.pid !== null ? ` (pid ${process.pid})` : ''}`;
}

/** A foreground command that kept running in the background instead of being stopped. */
export function movedSentence(ran: {
  process?: { id: string; pid: number | null } | undefined;
  moved_to_background?: 'timed_out' | 'person' | undefined;
}): string {
  const process = ran.process;
  const as = process ? ` as ${process.id}${process.pid !== null ? ` (pid ${process.pid})` : ''}` : '';
  return ran.moved_to_background === 'person'
    ? `Moved to the background${as} by the person while it ran: it keeps running`
    : `Reached its timeout and moved to the background${as} instead of being stopped: it keeps running`;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** The note over an output that is only the end of what the command printed. */
function cutNote(echo: ExecEcho): string | null {
  if (!echo.output_cut) return null;
  const shownBytes = utf8Length(echo.output);
  const where = echo.output_path ? `; the complete output is in ${echo.output_path}` : '';
  return `Showing the last ${lineCount(echo.output)} of ${echo.output_lines} lines (${formatBytes(shownBytes)} of ${formatBytes(echo.output_bytes)})${where}.`;
}

export function execParts(echo: ExecEcho): ExecParts {
  // What the command left running, or a remote stop that could not be confirmed, is said after how it ended.
  const after = execAftermath(echo);
  const sentence = after ? `${reason(echo)}. ${after}.` : reason(echo);
  const noOutput = echo.output_bytes === 0 && echo.output === '';
  return {
    label: label(echo),
    reason: sentence,
    // `exit 2` and `killed SIGSEGV` say all their sentence says; the others carry why or what failed.
    explains: after !== null || (echo.status !== 'exited' && echo.status !== 'signalled'),
    exitCode: echo.status === 'exited' ? echo.exit_code : null,
    note: noOutput ? null : cutNote(echo),
    output: echo.output,
    noOutput,
    sandbox: echo.sandbox ?? null,
    refusal: echo.sandbox_refusal ?? null,
  };
}

/** A command's echo as text (Copy transcript): the status sentence, the note, then the output. */
export function execEchoText(echo: ExecEcho): string {
  const parts = execParts(echo);
  const reason = [
    parts.sandbox ? `${parts.reason} (in the sandbox)` : parts.reason,
    ...(parts.refusal ? [parts.refusal] : []),
  ].join('\n');
  if (parts.noOutput) return `${reason}\n(no output)`;
  return [reason, ...(parts.note ? [parts.note] : []), parts.output].join('\n');
}
