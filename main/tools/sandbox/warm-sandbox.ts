import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PipedChild } from '../exec/command-spawn.ts';

// A sandbox started ahead of its command: bubblewrap's namespaces and mounts take most of a
// sandboxed command's start (10–30 ms on a busy machine), so after a command ends the next sandbox
// with the same plan is made at once and waits, a shell reading one line. The next command hands
// it what to run — a script in a folder bound read-only into it, that changes to the command's
// folder and starts the command's shell with exactly the command's environment — and it runs at
// once. A sandbox whose plan changed meanwhile (a secret appeared) is never used: the key is the
// plan itself. Unused ones wait with nothing to keep the app's process alive, and end when it
// ends (their input closes). This is the fast path beside the plain start (sandbox-launch.ts).

/** What the waiting shell runs: it reads a line (any), then sources the script its argument names. */
const WAITING_SHELL = 'IFS= read -r go || exit 0; . "$1"';

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

interface Waiting {
  child: PipedChild;
  folder: string;
}

const waiting = new Map<string, Waiting>();

/** The argv that starts a waiting sandbox: the wrapper's, around the waiting shell. */
export type WaitingArgv = (folder: string, innerArgv: string[]) => string[];

/**
 * Takes the sandbox waiting for `key`, hands it the command and returns it running; null when none
 * waits (the caller starts one the plain way). When the command ends, the next one is made.
 */
export function takeWarm(key: string, request: WarmRequest, argvOf: WaitingArgv): PipedChild | null {
  const warm = waiting.get(key);
  waiting.delete(key);
  let child: PipedChild | null = null;
  if (warm && warm.child.exitCode === null && warm.child.signalCode === null) {
    writeFileSync(path.join(warm.folder, 'run.sh'), handoffScript(request), { mode: 0o600 });
    child = warm.child;
    for (const stream of [child.stdout, child.stderr, child.stdin]) (stream as Refable).ref?.();
    child.ref();
    child.stdin.write('go\n');
  } else if (warm) end(warm);
  const next = (): void => warmUp(key, argvOf);
  if (child) child.once('exit', next);
  else setImmediate(next);
  return child;
}

/** Ends every waiting sandbox and removes its folder (a test's end, the app's). */
export function endWaitingSandboxes(): void {
  for (const warm of waiting.values()) {
    end(warm);
    rmSync(warm.folder, { recursive: true, force: true });
  }
  waiting.clear();
}

let exitHooked = false;

function warmUp(key: string, argvOf: WaitingArgv): void {
  if (waiting.has(key)) return;
  while (waiting.size >= MAX_WAITING) {
    const [oldest] = waiting.keys();
    if (oldest === undefined) break;
    const old = waiting.get(oldest);
    waiting.delete(oldest);
    if (old) end(old);
  }
  const folder = mkdtempSync(path.join(os.tmpdir(), 'aether-warm-'));
  const [file, ...args] = argvOf(folder, ['/bin/sh', '-c', WAITING_SHELL, 'aether-warm', path.join(folder, 'run.sh')]);
  let child: PipedChild;
  try {
    child = spawn(file ?? '/bin/sh', args, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return;
  }
  const warm = { child, folder };
  child.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  // Waiting, it keeps nothing alive; its folder goes once it has ended, used or not.
  for (const stream of [child.stdout, child.stderr, child.stdin]) (stream as Refable).unref?.();
  child.unref();
  child.once('exit', () => {
    if (waiting.get(key) === warm) waiting.delete(key);
    rmSync(folder, { recursive: true, force: true });
  });
  waiting.set(key, warm);
  // A waiting sandbox outlives no app: its folder would stay behind in the temp folder.
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', endWaitingSandboxes);
  }
}

function end(warm: Waiting): void {
  try {
    if (warm.child.pid !== undefined) process.kill(-warm.child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** Runs the command's shell in its folder with exactly its environment, replacing the waiting shell. */
export function handoffScript(request: WarmRequest): string {
  const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
  const variables = Object.entries(request.env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].includes('='))
    .map(([name, value]) => quote(`${name}=${value}`));
  return [
    `cd -- ${quote(request.cwd)} || exit 127`,
    `exec env -i ${variables.join(' ')} ${quote(request.shell)} -c ${quote(request.command)}`,
    '',
  ].join('\n');
}
