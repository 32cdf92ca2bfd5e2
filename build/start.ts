import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';

// `npm start`: the desktop app from this checkout. Electron's package downloads its binary while
// `npm ci` runs; on an offline or restricted network that download fails quietly, and running the
// package would try again and end in a stack trace. So the binary is looked for first, and where it
// is missing the command says why and offers the same panel in the browser (`aether serve --open`).

const ROOT = path.resolve(import.meta.dirname, '..');

export type ElectronBinary = { path: string } | { missing: string };

/**
 * Where Electron's package says its binary is (`path.txt` under `dist/`), or
 * `ELECTRON_OVERRIDE_DIST_PATH` as Electron itself reads it; `missing` says which file is absent.
 */
export function electronBinary(packageDir: string, env: NodeJS.ProcessEnv): ElectronBinary {
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) {
    const binary = path.join(override, relative ?? 'electron');
    return existsSync(binary)
      ? { path: binary }
      : { missing: `${binary} (ELECTRON_OVERRIDE_DIST_PATH) does not exist` };
  }
  if (relative === null) return { missing: `${pathFile} is missing: the binary was never downloaded` };
  const binary = path.join(packageDir, 'dist', relative);
  return existsSync(binary) ? { path: binary } : { missing: `${binary} is missing` };
}

/** What `npm start` prints when there is no binary: the cause, how to get it, and the browser panel. */
export function missingBinaryMessage(missing: string, workspace: string): string {
  return [
    `ÆtherCodex cannot start the desktop app: the Electron binary is not installed (${missing}).`,
    'Electron downloads it from GitHub while `npm ci` runs; on an offline or restricted network that download fails.',
    '  To install it once the network allows: npx install-electron',
    '  (or set ELECTRON_MIRROR to a mirror you can reach first; see Electron’s installation docs).',
    'The same panel runs in your browser meanwhile:',
    `  npm run aether -- serve --workspace ${quoted(workspace)} --open`,
  ].join('\n');
}

function quoted(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Runs `command` with the terminal's streams, passing Ctrl-C and the like on; resolves with its exit code. */
function runInherited(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`${command} did not start: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function askYes(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await prompt.question(question)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    prompt.close();
  }
}

async function main(args: string[]): Promise<number> {
  const binary = electronBinary(path.join(ROOT, 'node_modules', 'electron'), process.env);
  if ('path' in binary) return runInherited(binary.path, ['.', ...args]);
  // npm runs scripts in the project's folder; the folder `npm start` was typed in is the one to work on.
  const workspace = process.env['INIT_CWD'] ?? process.cwd();
  process.stderr.write(`${missingBinaryMessage(binary.missing, workspace)}\n`);
  if (!process.stdin.isTTY || !process.stdout.isTTY) return 1;
  if (!(await askYes('Open the browser panel now? [Y/n] '))) return 1;
  return runInherited(process.execPath, [
    path.join(ROOT, 'bin', 'aether.js'),
    'serve',
    '--workspace',
    workspace,
    '--open',
  ]);
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
