import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isRunning } from '../../../test/processes.ts';
import { OWNER_MARKER_VAR } from '../exec/call-processes.ts';
import { useProcessTools } from '../../../test/process-tools-kit.ts';
import { DEFAULT_PROCESS_LIMITS, type ProcessLimits } from './process-table.ts';

// The process tools on real processes: what each says for bad input, what a stop reaches (a
// process that ignores SIGTERM, a daemon that left the group), the limit on how many run, and a
// terminal driving a real node REPL.

const { pids, setup: tools } = useProcessTools('aether-process-tools-');

function setup(limits?: ProcessLimits) {
  const { table, registry } = tools(limits);
  let calls = 0;
  const run = async (name: string, args: Record<string, unknown>) => {
    calls += 1;
    const outcome = await registry.call({ callId: `call-${calls}`, name, args });
    return { text: outcome.content, isError: outcome.isError };
  };
  return { table, run };
}

describe('background processes', () => {
  it('reports a command that fails at once as its failure, with its output, not as a started process', async () => {
    const { run, table } = setup();
    const started = await run('exec', { command: 'echo no such thing >&2; exit 3', background: true });
    expect(started.isError).toBe(true);
    expect(started.text).toMatch(/^Exit code 3/);
    expect(started.text).toContain('no such thing');
    expect(table.running()).toEqual([]);
  });

  it('marks what it starts with the app, so a later start finds what a crash left', async () => {
    const { run, table } = setup();
    expect((await run('exec', { command: 'sleep 30', background: true })).text).toMatch(/^Running in the background/);
    const pid = table.get('p1').pid!;
    pids.push(pid);
    expect(readFileSync(`/proc/${pid}/environ`, 'latin1')).toContain(`${OWNER_MARKER_VAR}=`);
  });

  it('answers an unknown id, input to an ended process and a pattern that does not compile with what to do', async () => {
    const { run } = setup();
    const unknown = await run('process_output', { id: 'p7' });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.text).toContain(
      'There is no process p7 in this session (none was started); process_list shows them.',
    );

    await run('exec', { command: 'sleep 0.4; echo bye', background: true });
    const ended = await run('process_output', { id: 'p1', wait_for: 'never', timeout_s: 20 });
    expect(ended.text).toContain('It ended before a line matched /never/.');
    expect(ended.text).toContain('bye');
    const input = await run('process_input', { id: 'p1', text: 'hello\n' });
    expect(input.isError).toBe(true);
    expect(input.text).toMatch(/p1 is not running \(p1: exit 0 .*\), so it takes no input/);

    const bad = await run('process_output', { id: 'p1', wait_for: '(' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('wait_for is not a valid regular expression');
  });

  it('gives up a pattern that backtracks for ever, and the app goes on', async () => {
    const { run } = setup();
    await run('exec', { command: `printf '${'a'.repeat(40)}b\\n'; sleep 30`, background: true });
    const slow = await run('process_output', { id: 'p1', wait_for: '^(a+)+$', timeout_s: 20 });
    expect(slow.isError).toBe(true);
    expect(slow.text).toContain('took over 250 ms on the output and was given up');
    // The process and the tools still answer.
    expect((await run('process_list', {})).text).toMatch(/^p1: running/);
  });

  it('writes to its input and reads the answer since the last read', async () => {
    const { run } = setup();
    await run('exec', { command: 'while read line; do echo "got $line"; done', background: true });
    await run('process_input', { id: 'p1', text: 'one\n' });
    expect((await run('process_output', { id: 'p1', wait_for: 'got one' })).text).toContain('Matched: got one');
    await run('process_input', { id: 'p1', text: 'two\n' });
    const second = await run('process_output', { id: 'p1', wait_for: 'got two' });
    expect(second.text).toContain('got two');
    expect(second.text).not.toContain('got one');
  });

  it('stops a process that ignores SIGTERM, and a daemon it started in a session of its own', async () => {
    const { run, table } = setup();
    const daemon =
      'setsid sh -c \'trap "" TERM; echo daemon=$$; while :; do sleep 1; done\' & trap "" TERM; while :; do sleep 1; done';
    await run('exec', { command: daemon, background: true });
    const said = await run('process_output', { id: 'p1', wait_for: 'daemon=\\d+' });
    const daemonPid = Number(/daemon=(\d+)/.exec(said.text)?.[1]);
    const leader = table.get('p1').pid!;
    pids.push(daemonPid, leader);
    expect(isRunning(daemonPid)).toBe(true);
    const stopped = await run('process_stop', { id: 'p1' });
    expect(stopped.text).toMatch(/^Stopped: p1: stopped by the model/);
    // The daemon's shell and its sleep, whichever of them ran at the time.
    expect(stopped.text).toMatch(/It had started (\d+) process(es)? outside its process group: \1 stopped with it\.\]/);
    expect(isRunning(daemonPid)).toBe(false);
    expect(isRunning(leader)).toBe(false);
  });

  it('refuses a process past the session limit, naming those that run', async () => {
    const { run } = setup({ ...DEFAULT_PROCESS_LIMITS, maxRunning: 1 });
    await run('exec', { command: 'sleep 30', background: true });
    const refused = await run('exec', { command: 'sleep 31', background: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('1 processes already run in this session, the most it allows');
    expect(refused.text).toContain('p1: sleep 30');
  });

  it('drives a node REPL in a terminal: 1+1 is read as 2 from the screen', async () => {
    const { run } = setup();
    const started = await run('exec', { command: 'node', tty: true });
    expect(started.text).toMatch(/^Running in a terminal as p1/);
    await run('process_output', { id: 'p1', wait_for: '^> ?$', timeout_s: 30 });
    await run('process_input', { id: 'p1', text: '1+1\n' });
    const answer = await run('process_output', { id: 'p1', wait_for: '^2$', timeout_s: 30 });
    expect(answer.text).toContain('Matched: 2');
    const screen = answer.text.slice(answer.text.indexOf('Screen:\n') + 'Screen:\n'.length);
    expect(screen.split('\n')).toEqual(expect.arrayContaining(['> 1+1', '2']));
    // No escape codes reach the model: the screen is text.
    expect(answer.text).not.toContain('\x1b');
  });
});
