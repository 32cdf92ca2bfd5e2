import os from 'node:os';
import path from 'node:path';

// Where sessions live: `--sessions DIR`, else $AETHERCODEX_SESSIONS, else the given default
// (the app's user-data folder in Electron), else ~/.aethercodex/sessions. A blank value counts as
// unset: `AETHERCODEX_SESSIONS=` would otherwise resolve to the current folder.

export function sessionsRoot(
  options: { flag?: string | undefined; fallback?: string | undefined; env?: NodeJS.ProcessEnv } = {},
): string {
  const env = options.env ?? process.env;
  const chosen = [options.flag, env['AETHERCODEX_SESSIONS'], options.fallback].find(
    (value) => value !== undefined && value.trim() !== '',
  );
  return path.resolve(chosen ?? path.join(os.homedir(), '.aethercodex', 'sessions'));
}
