import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isRunning, pidIn } from '../../../test/processes.ts';
import { useProcessTools } from '../../../test/process-tools-kit.ts';
import { DEFAULT_PROCESS_LIMITS, type ProcessLimits } from './process-table.ts';

// A foreground exec that is still running at its timeout, or that the person moves with Keep
// running in the background, goes on in the session's process table instead of being stopped:
// real shell commands, read and stopped through the process tools.

const { temp, pids, setup: tools } = useProcessTools('aether-foreground-move-');

function setup(limits?: ProcessLimits) {
  const { table, registry } = tools(limits);
  const run = async (callId: string, name: string, args: Record<string, unknown>) => {
    const outcome = await registry.call({ callId, name, args });
    return { text: outcome.content, isError: outcome.isError };
  };
  return { table, run };
}

/** Prints `first`, writes its pid, waits for the file `go`, prints `after the move` and keeps running. */
function waitingCommand(): string {
  const pidFile = path.join(temp.root, 'cmd.pid');
  const go = path.join(temp.root, 'go');
  return `echo first; echo $$ > ${pidFile}; while [ ! -f ${go} ]; do sleep 0.05; done; echo after the move; exec sleep 30`;
}

describe('a foreground command that keeps running', () => {
  it('moves to the background at its timeout instead of being stopped, and the model is told its id', async () => {
    const { run, table } = setup();
    const result = await run('call-1', 'exec', { command: waitingCommand(), timeout_s: 1 });
    const pid = await pidIn(path.join(temp.root, 'cmd.pid'));
    pids.push(pid);
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(
      /^Reached its timeout and moved to the background as p1 \(pid \d+\) instead of being stopped/,
    );
    expect(result.text).toContain('process_output {"id": "p1"}');
    expect(result.text).toContain('first');
    const moved = table.get('p1');
    expect(moved.running).toBe(true);
    expect(moved.callId).toBe('call-1');
    expect(isRunning(pid)).toBe(true);

    // Its output goes on into the process's output, the earlier part first.
    await writeFile(path.join(temp.root, 'go'), '');
    const read = await run('call-2', 'process_output', { id: 'p1', wait_for: 'after the move', timeout_s: 20 });
    expect(read.text).toContain('after the move');
    expect(moved.output.read(0, 4096).text).toMatch(/^first\n[\s\S]*after the move/);

    const stopped = await run('call-3', 'process_stop', { id: 'p1' });
    expect(stopped.text).toMatch(/^Stopped: p1: stopped by the model/);
    expect(isRunning(pid)).toBe(false);
  });

  it('moves when the person asks while it runs, long before its timeout', async () => {
    const { run, table } = setup();
    const call = run('call-1', 'exec', { command: waitingCommand(), timeout_s: 600 });
    const pid = await pidIn(path.join(temp.root, 'cmd.pid'));
    pids.push(pid);
    const moved = await table.moveToBackground('call-1');
    const result = await call;
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(
      /^Moved to the background as p1 \(pid \d+\) by the person while it ran: it keeps running/,
    );
    expect(moved.id).toBe('p1');
    expect(moved.pid).toBe(pid);
    await writeFile(path.join(temp.root, 'go'), '');
    expect((await run('call-2', 'process_output', { id: 'p1', wait_for: 'after the move' })).text).toContain(
      'after the move',
    );
    await table.close();
    expect(isRunning(pid)).toBe(false);
    expect(moved.endReason).toBe('session_closed');
  });

  it('is stopped at its timeout as before when the session runs as many processes as it may', async () => {
    const { run, table } = setup({ ...DEFAULT_PROCESS_LIMITS, maxRunning: 0 });
    const result = await run('call-1', 'exec', { command: waitingCommand(), timeout_s: 1 });
    const pid = await pidIn(path.join(temp.root, 'cmd.pid'));
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Timed out and stopped/);
    expect(table.list()).toEqual([]);
    expect(isRunning(pid)).toBe(false);
  });

  it('says there is nothing to move for a call that is not running', async () => {
    const { run, table } = setup();
    expect((await run('call-1', 'exec', { command: 'echo done' })).text).toMatch(/^Exit code 0/);
    await expect(table.moveToBackground('call-1')).rejects.toThrow(/not running in the foreground any more/);
    await expect(table.moveToBackground('call-9')).rejects.toThrow(/not running in the foreground any more/);
  });
});
