import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { SpawnWrapper } from '../sandbox/spawn-wrapper.ts';

// How a command line the model asked for is started, in one place: exec's foreground run, a
// background process and a terminal all take their program, arguments, folder and environment
// from commandLaunch, so whatever wraps a command (a sandbox) wraps every way of running one.

export interface CommandRequest {
  /** The user's shell, which runs the command line with `-c`. */
  shell: string;
  command: string;
  /** The folder it runs in, real path. */
  cwd: string;
  /** Its whole environment, markers included (call-processes.ts). */
  env: NodeJS.ProcessEnv;
  /** Runs the shell inside something (the sandbox). */
  wrapper?: SpawnWrapper;
}

/** The program to start and how: what a pipe-connected child and a terminal are both spawned from. */
export interface CommandLaunch {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function commandLaunch(request: CommandRequest): CommandLaunch {
  const argv = [request.shell, '-c', request.command];
  const [file = request.shell, ...args] = request.wrapper?.wrap(argv) ?? argv;
  return { file, args, cwd: request.cwd, env: request.wrapper?.env(request.env) ?? request.env };
}

/** A child whose output comes through pipes, its input a pipe too. */
export type PipedChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** Starts a launch as the leader of a new process group, so a stop reaches everything it starts. */
export function spawnInGroup(launch: CommandLaunch): PipedChild {
  return spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}
