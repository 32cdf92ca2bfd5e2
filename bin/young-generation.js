// The young generation of the commands that run sessions. V8 sizes it by the machine's memory: on
// one with 16 GB or more a semi-space grows to 64 MiB, and a long `aether run` — whose garbage is
// mostly short-lived request bodies and file reads — keeps 128 MiB of resident memory in it while
// its live heap is under 100 MiB. 16 MiB semi-spaces (Node's size before it scaled them) hold what
// one model step allocates. V8 reads the size only as it starts, so these commands start Node once
// more with it, in the same process (execve keeps the pid, the standard streams and the signals);
// a size given in the Node options or on the command line is left as it is, and so is Windows,
// which has no execve.

/** Commands that hold a session open for its steps. */
export const SESSION_COMMANDS = new Set(['run', 'serve', 'acp']);
export const SEMI_SPACE_FLAG = '--max-semi-space-size=16';

/**
 * The argument list to start Node again with, or null when this process runs as it should.
 * @param {{ argv: string[]; execArgv: string[]; nodeOptions: string | undefined; canExec: boolean }} here
 * @returns {string[] | null}
 */
export function restartArgs(here) {
  const [, script, command] = here.argv;
  if (!here.canExec || script === undefined || command === undefined || !SESSION_COMMANDS.has(command)) return null;
  const named = (/** @type {string} */ arg) => /^--max-semi-space-size(=|$)/.test(arg);
  if (here.execArgv.some(named) || (here.nodeOptions ?? '').split(/\s+/).some(named)) return null;
  return [SEMI_SPACE_FLAG, ...here.execArgv, ...here.argv.slice(1)];
}
