import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { CALL_MARKER_VAR, KEEPS_MARKER_VAR, OWNER_MARKER_VAR, ownerMark } from '../exec/call-processes.ts';

// What `aether run --keep-processes` leaves running must go on without it. A background command's
// output comes through pipes the run reads; were they simply closed, its next write would end it
// (SIGPIPE, or EPIPE in Node). So each kept command's pipes go to a small keeper process of its own,
// started detached, which writes them on into a file beside the command's output in the session's
// folder (two files that take turns, within the same disk limit) and exits when the command's
// output closes: when the command, and whatever it started, has ended.
//
// The keeper carries AETHER_KEEPS=<this app process's owner mark>: while it runs, the start sweep
// of a later app or run leaves alone what this run started (left-processes.ts), which it would
// otherwise end as left behind by a run that is gone. The keeper itself carries no owner mark.

// Plain CommonJS for `node -e`: the keeper must start from a bundled command line as from the sources.
const KEEPER_SOURCE = `
const fs = require('node:fs');
const net = require('node:net');
const [, file, limit] = process.argv;
const half = Math.max(4096, Math.floor(Number(limit) / 2));
let fd = fs.openSync(file, 'a', 0o600);
let size = fs.fstatSync(fd).size;
const write = (chunk) => {
  try {
    if (size >= half) {
      fs.closeSync(fd);
      fs.renameSync(file, file + '.1');
      fd = fs.openSync(file, 'a', 0o600);
      size = 0;
    }
    fs.writeSync(fd, chunk);
    size += chunk.length;
  } catch {
    // A full disk loses this output, never the command.
  }
};
let open = 2;
const closed = () => { open -= 1; if (open === 0) process.exit(0); };
for (const pipe of [new net.Socket({ fd: 0, readable: true, writable: false }), new net.Socket({ fd: 3, readable: true, writable: false })]) {
  pipe.on('data', write);
  pipe.once('close', closed);
  pipe.on('error', () => undefined);
}
for (const signal of ['SIGHUP', 'SIGINT']) process.on(signal, () => undefined);
`;

/**
 * Starts a keeper for a command's output pipes: it writes them on into `file` (at most `maxBytes`
 * on disk with `file.1`). Returns the file. Runs on this Node (`execPath`).
 */
export function startOutputKeeper(
  pipes: { stdout: Readable; stderr: Readable },
  file: string,
  maxBytes: number,
  execPath = process.execPath,
): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = { ...process.env, [KEEPS_MARKER_VAR]: ownerMark() };
  delete env[OWNER_MARKER_VAR];
  delete env[CALL_MARKER_VAR];
  // Electron's binary runs as Node only when told to.
  if (process.versions['electron']) env['ELECTRON_RUN_AS_NODE'] = '1';
  const keeper = spawn(execPath, ['-e', KEEPER_SOURCE, file, String(maxBytes)], {
    detached: true,
    env,
    stdio: [pipes.stdout, 'ignore', 'ignore', pipes.stderr],
  });
  keeper.unref();
  return file;
}
