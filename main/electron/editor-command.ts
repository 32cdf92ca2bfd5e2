import { spawn } from 'node:child_process';
import type { Result } from '../../protocol/api.ts';

// The desktop app's "Open files in: editor": the person's command, such as `code -g {path}:{line}`,
// split into a program and its arguments the way a shell would split words (quotes group, nothing
// else is special), `{path}` and `{line}` put in, and run directly — never through a shell, so a
// file name can never become a second command.

/** How long a command that fails at once (a wrong flag) is waited for, to say so instead of "opened". */
const EARLY_EXIT_MS = 700;

export class EditorCommandError extends Error {
  override name = 'EditorCommandError';
}

/** The words of a command line: spaces separate, '…' and "…" group, a backslash keeps the next character. */
export function commandWords(template: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < template.length; index += 1) {
    const char = template[index]!;
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && index + 1 < template.length) word += template[++index];
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === '\\' && index + 1 < template.length) {
      word += template[++index];
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quote !== null) throw new EditorCommandError(`The editor command has an unclosed ${quote} quote: ${template}`);
  if (started) words.push(word);
  return words;
}

/** The program and its arguments for one file; without `{path}` in it, the path is the last argument. */
export function editorArgv(template: string, file: string, line: number): string[] {
  const words = commandWords(template);
  if (words.length === 0)
    throw new EditorCommandError('The editor command is empty. Set one such as code -g {path}:{line}.');
  const named = words.some((word) => word.includes('{path}'));
  const filled = words.map((word) => word.replaceAll('{path}', file).replaceAll('{line}', String(line)));
  return named ? filled : [...filled, file];
}

/** Starts the editor command for `file` at `line`; an error says what failed and what to change. */
export async function runEditorCommand(template: string, file: string, line: number): Promise<Result<void>> {
  let argv: string[];
  try {
    argv = editorArgv(template, file, line);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const [program, ...args] = argv as [string, ...string[]];
  const child = spawn(program, args, { shell: false, detached: true, stdio: 'ignore', windowsHide: true });
  const started = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.once('error', resolve);
  });
  if (started) {
    const code = (started as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such program on the PATH' : started.message;
    return {
      ok: false,
      error: `Could not start the editor command ${program} (${why}). Change it in Settings → Open files in, or open files in the panel.`,
    };
  }
  const early = await new Promise<number | string | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), EARLY_EXIT_MS);
    child.once('exit', (exitCode, signal) => {
      clearTimeout(timer);
      resolve(exitCode ?? signal);
    });
  });
  child.unref();
  if (early !== null && early !== 0)
    return {
      ok: false,
      error: `The editor command ${program} stopped at once (${typeof early === 'number' ? `exit ${early}` : early}) without opening ${file}. Check its arguments in Settings → Open files in.`,
    };
  return { ok: true, value: undefined };
}
