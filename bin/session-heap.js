// The heap of the commands that run sessions. V8 sizes the young generation by the machine's
// memory: on one with 16 GB or more a semi-space grows to 64 MiB, and a long `aether run` — whose
// garbage is mostly short-lived request bodies and file reads — kept 128 MiB of resident memory in
// it while its live heap was under 100 MiB. 16 MiB semi-spaces (Node's size before it scaled them)
// hold what one model step allocates. And V8 lets the old generation grow to about twice what was
// live at the last full collection before the next one: the requests' bodies and their chunks
// waited there, 50 to 100 MiB of them. Growing by half at most keeps a 4 000-read run near 260 MiB
// instead of 360, in about the same time.
//
// Outside V8's heap, glibc's malloc gives each thread that allocates its own arena (Node's file
// and crypto threads, the search workers, V8's own): up to eight per core, each keeping the memory
// its thread freed. Two arenas held a 1 000-call run of reads and searches about 30 MiB lower, in
// the same CPU time. Other C libraries ignore the variable.
//
// V8 reads these only as it starts, so these commands start Node once more with them, in the same
// process (execve keeps the pid, the standard streams and the signals). A flag the person gave,
// in the Node options or on the command line, is kept as given; Windows, which has no execve, runs
// with V8's own.

/** Commands that hold a session open for its steps. */
export const SESSION_COMMANDS = new Set(['run', 'serve', 'acp']);
export const SESSION_HEAP_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=50'];

/** The environment the restarted process adds, unless the person set it. */
export const SESSION_ENV = { MALLOC_ARENA_MAX: '2' };

/**
 * The environment to start Node again with: `env`, and what SESSION_ENV adds that it does not set.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function restartEnv(env) {
  return { ...SESSION_ENV, ...env };
}

/**
 * The argument list to start Node again with, or null when this process runs as it should.
 * @param {{ argv: string[]; execArgv: string[]; nodeOptions: string | undefined; canExec: boolean }} here
 * @returns {string[] | null}
 */
export function restartArgs(here) {
  const [, script, command] = here.argv;
  if (!here.canExec || script === undefined || command === undefined || !SESSION_COMMANDS.has(command)) return null;
  const given = [...here.execArgv, ...(here.nodeOptions ?? '').split(/\s+/)].map((arg) => arg.split('=')[0]);
  const missing = SESSION_HEAP_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]));
  if (missing.length === 0) return null;
  return [...missing, ...here.execArgv, ...here.argv.slice(1)];
}
