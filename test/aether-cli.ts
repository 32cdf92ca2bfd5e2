import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_COMMANDS, SESSION_ENV, SESSION_HEAP_FLAGS } from '../bin/session-heap.js';

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

export const AETHER_BIN = path.join(repo, 'bin', 'aether.js');

/**
 * Node's arguments for `aether <command>`: a command that runs sessions is given its heap flags
 * here, so bin/aether.js need not start Node a second time to give them (a start that costs a
 * test's child as much as a person's). session-heap.test.ts starts it `bare`, as a shell does.
 */
export function aetherNodeArgs(command: string | undefined): string[] {
  return [...(isSessionCommand(command) ? SESSION_HEAP_FLAGS : []), AETHER_BIN];
}

/** What that second start would add to the environment, for the child's environment to start from. */
export function aetherEnv(command: string | undefined): Readonly<Record<string, string>> {
  return isSessionCommand(command) ? SESSION_ENV : {};
}

function isSessionCommand(command: string | undefined): boolean {
  return command !== undefined && SESSION_COMMANDS.has(command);
}

export interface StartOptions {
  /** A pipe the test writes to (`child.stdin`), else none. */
  stdin?: boolean;
  /** Node started with no flags of its own, as a shell starts it (see aetherNodeArgs). */
  bare?: boolean;
}

/**
 * `env` is added to the test's own; the colour switches of the environment the tests run in
 * (FORCE_COLOR, NO_COLOR) are left out unless `env` sets them. `launcher`: started through that
 * script (or a link to it) instead of the bin on this Node.
 */
export function startAether(
  args: string[],
  env: Record<string, string> = {},
  launcher?: string,
  options: StartOptions = {},
): RunningAether {
  const [command, first] = launcher
    ? [launcher, []]
    : [process.execPath, options.bare ? [AETHER_BIN] : aetherNodeArgs(args[0])];
  const child = spawn(command, [...first, ...args], {
    cwd: repo,
    env: {
      ...(launcher || options.bare ? {} : aetherEnv(args[0])),
      ...process.env,
      AETHERCODEX_SESSIONS: '',
      FORCE_COLOR: undefined,
      NO_COLOR: undefined,
      ...env,
    },
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

export function aether(
  args: string[],
  env: Record<string, string> = {},
  launcher?: string,
  options: StartOptions = {},
): Promise<Ran> {
  return startAether(args, env, launcher, options).done;
}
