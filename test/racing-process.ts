import { spawn } from 'node:child_process';
import { once } from 'node:events';

// A second, real process that races the tools on the same files (a folder swapped for a link, a
// log being appended to). Its program is plain JavaScript run by this Node; it is handed `args`
// as process.argv.slice(1), says "ready" on stdout once its loop runs, and stops when its stdin
// closes, printing its final report (anything it writes after "ready").

export interface RacingProcess {
  pid: number;
  /** Ends the loop and returns what the program printed after "ready". */
  stop(): Promise<string>;
}

/** The program's loop body runs while `running()` is true; the harness around it is added here. */
export async function startRacingProcess(program: string, args: string[]): Promise<RacingProcess> {
  const source = `
    let stopped = false;
    const running = () => !stopped;
    process.stdin.on('end', () => { stopped = true; });
    process.stdin.resume();
    ${program}
  `;
  const child = spawn(process.execPath, ['-e', source, '--', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (output += chunk));
  while (!output.includes('ready\n')) {
    const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit')])) as unknown[];
    if (typeof chunk !== 'string') throw new Error(`The racing process exited before it was ready: ${output}`);
  }
  return {
    pid: child.pid ?? -1,
    async stop() {
      const exited =
        child.exitCode !== null || child.signalCode !== null ? Promise.resolve([child.exitCode]) : once(child, 'exit');
      child.stdin.end();
      const [code] = (await exited) as [number | null];
      if (code !== 0) throw new Error(`The racing process failed (exit ${code}): ${output}`);
      return output.slice(output.indexOf('ready\n') + 'ready\n'.length);
    },
  };
}
