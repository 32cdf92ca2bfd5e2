import { spawn } from 'node:child_process';
import type { PipedChild } from '../exec/command-spawn.ts';

// A sandbox started ahead of its command: bubblewrap's namespaces and mounts take most of a
// sandboxed command's start (10–30 ms on a busy machine), so after a command ends the next sandbox
// with the same plan is made at once and waits, a shell reading one line. The next command hands
// it that line — change to the command's folder and start the command's shell with exactly the
// command's environment — and it runs at once; what follows the line on its input is the
// command's input. A sandbox whose plan changed meanwhile (a secret appeared) is never used: the
// key is the plan itself. Unused ones wait with nothing to keep the app's process alive, and end
// when it ends (their input closes). This is the fast path beside the plain start (sandbox-launch.ts).

/**
 * What the waiting shell runs: it reads one line and runs it. `nl` is a newline, which the line
 * names where a value holds one (the line itself cannot). A shell's `read` takes its input a byte
 * at a time from a pipe, so nothing after the line is taken from the command.
 */
const WAITING_SHELL = 'nl=\'\n\'; IFS= read -r line || exit 0; eval "$line"';

/** How many plans keep a sandbox waiting (one per workspace and rules, in practice). */
const MAX_WAITING = 4;

export interface WarmRequest {
  shell: string;
  command: string;
  cwd: string;
  /** The command's whole environment. */
  env: NodeJS.ProcessEnv;
}

/** A pipe's stream, which can stop (or go back to) keeping the event loop alive. */
interface Refable {
  ref?(): void;
  unref?(): void;
}

const waiting = new Map<string, PipedChild>();

/** The argv that starts a waiting sandbox: the wrapper's, around the waiting shell. */
export type WaitingArgv = (innerArgv: string[]) => string[];

/**
 * Takes the sandbox waiting for `key`, hands it the command and returns it running; null when none
 * waits (the caller starts one the plain way). The caller makes the next one once its command ended.
 */
export function takeWarm(key: string, request: WarmRequest): PipedChild | null {
  const child = waiting.get(key);
  waiting.delete(key);
  if (!child) return null;
  if (child.exitCode !== null || child.signalCode !== null) return null;
  for (const stream of [child.stdout, child.stderr, child.stdin]) (stream as Refable).ref?.();
  child.ref();
  child.stdin.write(`${handoffLine(request)}\n`);
  return child;
}

/** Ends every waiting sandbox (a test's end). */
export function endWaitingSandboxes(): void {
  for (const child of waiting.values()) end(child);
  waiting.clear();
}

/** Starts the sandbox that waits for the next command of `key`, unless one waits already. */
export function warmUp(key: string, argvOf: WaitingArgv): void {
  if (waiting.has(key)) return;
  while (waiting.size >= MAX_WAITING) {
    const [oldest] = waiting.keys();
    if (oldest === undefined) break;
    const old = waiting.get(oldest);
    waiting.delete(oldest);
    if (old) end(old);
  }
  const [file, ...args] = argvOf(['/bin/sh', '-c', WAITING_SHELL, 'aether-warm']);
  let child: PipedChild;
  try {
    child = spawn(file ?? '/bin/sh', args, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch {
    return;
  }
  child.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  // Waiting, it keeps nothing alive.
  for (const stream of [child.stdout, child.stderr, child.stdin]) (stream as Refable).unref?.();
  child.unref();
  child.once('exit', () => {
    if (waiting.get(key) === child) waiting.delete(key);
  });
  waiting.set(key, child);
}

function end(child: PipedChild): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * One line that runs the command's shell in its folder with exactly its environment, replacing the
 * waiting shell: every word single-quoted, a newline inside one written as `$nl` between quotes.
 */
export function handoffLine(request: WarmRequest): string {
  const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`).replace(/\n/g, `'"$nl"'`)}'`;
  const variables = Object.entries(request.env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].includes('='))
    .map(([name, value]) => quote(`${name}=${value}`));
  return `cd -- ${quote(request.cwd)} || exit 127; exec env -i ${variables.join(' ')} ${quote(request.shell)} -c ${quote(request.command)}`;
}
