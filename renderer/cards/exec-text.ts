// Reading the model-facing text of `exec` / `ssh_exec` back into parts for the card. The text is
// a status line (`Exit code 0 · 1.2 s`, `Killed by SIGTERM · …`, `Timed out …`), then either
// `(no output)`, or an optional `[Showing the last …]` note and the output.

export interface ExecText {
  /** False when the text is not a command's result (a refusal, invalid arguments…). */
  recognised: boolean;
  status: string;
  /** The exit code when the command exited; null when it was killed, timed out or never ran. */
  exitCode: number | null;
  note: string | null;
  output: string;
  noOutput: boolean;
}

const NO_OUTPUT = '(no output)';
/** The status lines the exec renderer writes (main/tools/exec-output.ts `statusLine`). */
const STATUS_LINE = /^(Exit code \S+|Killed by |Timed out and stopped|Cancelled and stopped|Connection .*lost|Failed to start: )/;

export function parseExecText(text: string): ExecText {
  const newline = text.indexOf('\n');
  const status = (newline < 0 ? text : text.slice(0, newline)).trim();
  let rest = newline < 0 ? '' : text.slice(newline + 1);
  const code = /^Exit code (-?\d+)\b/.exec(status);
  const exitCode = code?.[1] !== undefined ? Number(code[1]) : null;
  const recognised = STATUS_LINE.test(status);

  if (rest.trim() === NO_OUTPUT || rest === '') return { recognised, status, exitCode, note: null, output: '', noOutput: true };
  let note: string | null = null;
  if (rest.startsWith('[Showing the last')) {
    const end = rest.indexOf(']\n');
    note = end < 0 ? rest : rest.slice(0, end + 1);
    rest = end < 0 ? '' : rest.slice(end + 2);
  }
  return { recognised, status, exitCode, note, output: rest, noOutput: false };
}

/** The `host: command` / `command` subtitle of a command card. */
export function commandSubtitle(command: string | undefined, host?: string): string {
  const line = (command ?? '').replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return host ? `${host}: ${line}` : line;
}
