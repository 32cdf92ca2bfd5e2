import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { WatchingSink } from '../../../test/ssh-setup.ts';
import { execTool } from './exec.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import type { ExecRun } from './exec-output.ts';

// Commands that leave processes behind: daemons in a session of their own (setsid), holding the
// output pipe or not. Real processes, found afterwards by pid in /proc.

let root: string;
let workspace: string;
let sessionDir: string;
const started: number[] = [];

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-daemons-'));
});

afterEach(async () => {
  // A failing test must not leave its daemons running for the rest of the suite.
  for (const pid of started.splice(0).filter(isAlive)) process.kill(pid, 'SIGKILL');
  await rm(root, { recursive: true, force: true });
});

/** Starts a setsid daemon and waits until it has left the shell's process group, printing its pid. */
const DAEMON =
  'setsid sleep 1000 & d=$!; until [ "$(cut -d" " -f5 /proc/$d/stat)" != "$$" ]; do sleep 0.02; done; echo daemon=$d';

function setup(outputGraceMs?: number) {
  const sink = new WatchingSink();
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody to ask'));
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, readableRoots: [sessionDir] });
  registry.register(
    execTool({ shell: '/bin/sh', killGraceMs: 500, ...(outputGraceMs !== undefined ? { outputGraceMs } : {}) }),
  );
  let calls = 0;
  const run = (args: Record<string, unknown>, signal?: AbortSignal) => {
    calls += 1;
    return registry.call({ callId: `call-${calls}`, name: 'exec', args, ...(signal ? { signal } : {}) });
  };
  /** The card's echo of the last call (a failed command keeps no structured result, only its echo). */
  const echo = () =>
    sink.ofType('tool_completed').at(-1)?.result as unknown as Pick<
      ExecRun,
      'status' | 'exit_code' | 'output' | 'left_behind'
    >;
  return { sink, run, echo };
}

/** True while the process exists and is not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return fields.slice(fields.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The pids a command printed as `daemon=PID`, remembered for cleanup. */
function daemonPids(text: string): number[] {
  const pids = [...text.matchAll(/daemon=(\d+)/g)].map((match) => Number(match[1]));
  started.push(...pids);
  return pids;
}

describe('exec and the processes a command leaves behind', () => {
  it('ends a setsid daemon on timeout and says it stopped what the command left behind', async () => {
    const { run, echo } = setup();
    const outcome = await run({ command: `${DAEMON}; sleep 1000`, timeout_s: 2 });
    const result = echo();
    const pids = daemonPids(result.output);
    expect(pids).toHaveLength(1);
    expect(result.status).toBe('timed_out');
    expect(pids.filter(isAlive)).toEqual([]);
    expect(result.left_behind).toEqual({ stopped: 1, still_running: 0 });
    expect(outcome.content).toMatch(/^Timed out and stopped.*\n\[Stopped 1 process the command left running/);
  });

  it('ends a setsid daemon when the call is stopped', async () => {
    const { run, sink, echo } = setup();
    const controller = new AbortController();
    sink.onEvent = (event) => {
      if (event.type === 'tool_progress' && event.progress.text.includes('ready')) controller.abort();
    };
    const outcome = await run({ command: `${DAEMON}; echo ready; sleep 1000` }, controller.signal);
    expect(outcome.content).toMatch(/^Cancelled and stopped.*\n\[Stopped 1 process the command left running\.\]/);
    const result = echo();
    const pids = daemonPids(result.output);
    expect(result.status).toBe('cancelled');
    expect(pids).toHaveLength(1);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(result.left_behind).toEqual({ stopped: 1, still_running: 0 });
  });

  it('reports a shell that exited 0 while its daemon holds the output pipe as exited 0, not timed out', async () => {
    const { run, sink } = setup();
    const outcome = await run({ command: '(setsid sleep 1000 >&1 & echo daemon=$!); exit 0', timeout_s: 30 });
    const result = outcome.result as ExecRun;
    expect(outcome.content).toMatch(/^Exit code 0 · .*\n\[Stopped 1 process the command left running\.\]\n/);
    const pids = daemonPids(result.output);
    expect(result).toMatchObject({ status: 'exited', exit_code: 0, left_behind: { stopped: 1, still_running: 0 } });
    expect(outcome.isError).toBe(false);
    expect(pids).toHaveLength(1);
    expect(pids.filter(isAlive)).toEqual([]);
    // The card says so too.
    expect(sink.ofType('tool_completed')[0]?.result).toMatchObject({
      status: 'exited',
      exit_code: 0,
      left_behind: { stopped: 1, still_running: 0 },
    });
  });

  it('ends a daemon that let go of the output when the command completes', async () => {
    const { run, echo } = setup();
    await run({ command: 'setsid sleep 1000 >/dev/null 2>&1 & echo daemon=$!; exit 3' });
    const result = echo();
    const pids = daemonPids(result.output);
    expect(result).toMatchObject({ status: 'exited', exit_code: 3, left_behind: { stopped: 1, still_running: 0 } });
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('keeps what a background job prints within the grace after the shell exits', async () => {
    // A long grace, so that a loaded machine still runs the job within it.
    const { run } = setup(5000);
    const outcome = await run({ command: '(sleep 0.1; echo late) & echo early; exit 0' });
    const result = outcome.result as ExecRun;
    expect(result).toMatchObject({ status: 'exited', exit_code: 0, output: 'early\nlate\n' });
    expect(result.left_behind).toBeUndefined();
  });
});
