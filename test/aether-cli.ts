import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The `aether` command as a person runs it: a child process on the project's Node.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningAether {
  child: ChildProcess;
  /** Resolves once stdout holds `text`. */
  printed(text: string): Promise<void>;
  done: Promise<Ran>;
}

/** The project's `aether` launcher (a shell script), as README's examples start it; or one linked to it. */
export const LAUNCHER = path.join(repo, 'aether');

/**
 * `env` is added to the test's own; the colour switches of the environment the tests run in
 * (FORCE_COLOR, NO_COLOR) are left out unless `env` sets them. `launcher`: started through that
 * script (or a link to it) instead of the bin on this Node. `stdin`: a pipe the test writes to
 * (`child.stdin`), else none.
 */
export function startAether(
  args: string[],
  env: Record<string, string> = {},
  launcher?: string,
  options: { stdin?: boolean } = {},
): RunningAether {
  const [command, first] = launcher ? [launcher, []] : [process.execPath, [path.join(repo, 'bin', 'aether.js')]];
  const child = spawn(command, [...first, ...args], {
    cwd: repo,
    env: { ...process.env, AETHERCODEX_SESSIONS: '', FORCE_COLOR: undefined, NO_COLOR: undefined, ...env },
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve(): void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of waiters.filter((entry) => stdout.includes(entry.text))) waiter.resolve();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Ran>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return {
    child,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void done.then((ran) =>
          reject(new Error(`aether exited (${ran.code}) without printing ${text}: ${ran.stderr}`)),
        );
      }),
    done,
  };
}

export function aether(args: string[], env: Record<string, string> = {}, launcher?: string): Promise<Ran> {
  return startAether(args, env, launcher).done;
}
