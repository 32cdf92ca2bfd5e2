import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Another process writing a session: a child Node that opens it with SessionLog (and so holds its
// lock) until told to close it, or until it is killed without any chance to clean up.

const sessionLogModule = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'main',
  'session',
  'session-log.ts',
);

export interface SessionHolder {
  pid: number;
  /** Closes the session in the child (releasing the lock) and waits for it to exit. */
  close(): Promise<void>;
  /** SIGKILL: the lock file stays behind, naming a process that no longer runs. */
  kill(): Promise<void>;
}

export async function holdSession(
  root: string,
  id: string,
  options: { create?: { workspace: string } } = {},
): Promise<SessionHolder> {
  const open = options.create
    ? `(await SessionLog.create({ root, id, workspace: ${JSON.stringify(options.create.workspace)}, model: 'demo' }))`
    : `(await SessionLog.resume(root, id)).log`;
  const script = `
    const { SessionLog } = await import(${JSON.stringify(sessionLogModule)});
    const root = ${JSON.stringify(root)};
    const id = ${JSON.stringify(id)};
    const log = ${open};
    process.stdout.write('holding\\n');
    process.stdin.resume();
    process.stdin.on('end', async () => { await log.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForLine(child, 'holding');
  return {
    pid: child.pid!,
    close: async () => {
      child.stdin?.end();
      await exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(line)) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the session holder exited (${code}) before holding: ${err}`)));
  });
}
