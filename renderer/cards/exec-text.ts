// Reading the model-facing text of `exec` / `ssh_exec` back into parts for the card. The text is
// a status line (`Exit code 0 · 1.2 s`, `Killed by SIGTERM · …`, `Timed out …`), then either
// `(no output)`, or an optional `[Showing the last …]` note and the output.

export interface ExecText {
  /** False when the text is not a command's result (a refusal, invalid arguments…). */
  recognised: boolean;
  status: string;
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
}

const NO_OUTPUT = '(no output)';
/** The status lines the exec renderer writes (main/tools/exec-output.ts `statusLine`). */
const STATUS_LINE =
  /^(Exit code \S+|Killed by |Timed out and stopped|Cancelled and stopped|Connection .*lost|Failed to start: )/;

/** The ` · 1.2 s` the status line ends with (main/tools/exec-output.ts `formatDuration`). */
const DURATION_SUFFIX = / · \d+(?:\.\d+)? m?s$/;

/** The short badge for a status line; the whole sentence when it is none of the known ones. */
function statusLabel(status: string): string {
  const exit = /^Exit code (\S+)/.exec(status)?.[1];
  if (exit !== undefined) return `exit ${exit}`;
  if (status.startsWith('Killed by ')) {
    const signal = /^Killed by (SIG[A-Z0-9]+)\b/.exec(status)?.[1];
    return signal ? `killed ${signal}` : 'killed';
  }
  if (status.startsWith('Timed out and stopped')) return 'timed out';
  if (status.startsWith('Cancelled and stopped')) return 'cancelled';
  if (/^Connection .*lost/.test(status)) return 'connection lost';
  if (status.startsWith('Failed to start: ')) return 'failed to start';
  return status.replace(DURATION_SUFFIX, '');
}

export function parseExecText(text: string): ExecText {
  const newline = text.indexOf('\n');
  const status = (newline < 0 ? text : text.slice(0, newline)).trim();
  let rest = newline < 0 ? '' : text.slice(newline + 1);
  const code = /^Exit code (-?\d+)\b/.exec(status);
  const exitCode = code?.[1] !== undefined ? Number(code[1]) : null;
  const recognised = STATUS_LINE.test(status);
  const label = statusLabel(status);
  const reason = status.replace(DURATION_SUFFIX, '');
  // `exit 2` and `killed SIGSEGV` say all their sentence says; the others carry why or what failed.
  const explains = recognised && !/^(Exit code |Killed by )/.test(status);
  const head = { recognised, status, label, reason, explains, exitCode };

  if (rest.trim() === NO_OUTPUT || rest === '') return { ...head, note: null, output: '', noOutput: true };
  let note: string | null = null;
  if (rest.startsWith('[Showing the last')) {
    const end = rest.indexOf(']\n');
    note = end < 0 ? rest : rest.slice(0, end + 1);
    rest = end < 0 ? '' : rest.slice(end + 2);
  }
  return { ...head, note, output: rest, noOutput: false };
}

/** The `host: command` / `command` subtitle of a command card. */
export function commandSubtitle(command: string | undefined, host?: string): string {
  const line = (command ?? '').replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return host ? `${host}: ${line}` : line;
}
