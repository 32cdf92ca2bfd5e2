import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { DEFAULT_SANDBOX_RULES } from '../../protocol/sandbox.ts';
import { makeSandboxScene, removeSandboxScene, type SandboxScene } from '../../test/sandbox-setup.ts';
import { StatusRecorder } from '../status/sink.ts';
import { CALL_MARKER_VAR } from '../tools/exec/call-processes.ts';
import { execTool } from '../tools/exec/exec.ts';
import type { ExecRun } from '../tools/exec/exec-output.ts';
import { PendingApprovals, PermissionGate, type ApprovalQuestion } from '../tools/permission-gate.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { DEFAULT_PROCESS_LIMITS, ProcessTable } from '../tools/processes/process-table.ts';
import { processTools } from '../tools/processes/process-tools.ts';
import { headlessGate, rulesForMode } from './permissions.ts';
import { applyPermissions, kindRules } from './session-permissions.ts';

// The sandbox permission mode with the real bwrap: commands run without a question inside the
// sandbox; one the sandbox stopped says what it needed; running it outside asks the person.

let scene: SandboxScene;
beforeEach(async () => {
  scene = await makeSandboxScene();
});
afterEach(async () => {
  await removeSandboxScene(scene);
});

class WatchingSink extends StatusRecorder {
  onEvent: (event: StatusEvent) => void = () => {};
  override emit(event: StatusEvent): void {
    super.emit(event);
    this.onEvent(event);
  }
}

function setup(gate: PermissionGate) {
  const sink = new WatchingSink();
  const sessionDir = path.join(scene.root, 'session');
  const registry = new ToolRegistry({
    workspace: scene.workspace,
    sessionDir,
    sink,
    gate,
    readableRoots: [sessionDir],
  });
  registry.register(execTool({ shell: '/bin/sh', killGraceMs: 500 }));
  let calls = 0;
  const run = (args: Record<string, unknown>, signal?: AbortSignal) =>
    registry.call({ callId: `call-${++calls}`, name: 'exec', args, ...(signal ? { signal } : {}) });
  return { sink, run };
}

describe('the sandbox permission mode', () => {
  it('runs a command without a question, inside the sandbox, and the card says so', async () => {
    const { run } = setup(headlessGate({ mode: 'sandbox' }));
    const outcome = await run({ command: 'echo built > out.txt && cat /proc/1/comm' });
    expect(outcome.isError).toBe(false);
    expect(readFileSync(path.join(scene.workspace, 'out.txt'), 'utf8')).toBe('built\n');
    const result = outcome.result as ExecRun;
    // PID 1 of the command's namespace is bubblewrap's, not the system's init.
    expect(result.output).toContain('bwrap');
    expect(result.sandbox).toContain('no network');
  });

  it('says what a refused command needed and how to run it outside', async () => {
    const { run } = setup(headlessGate({ mode: 'sandbox' }));
    const outcome = await run({ command: `echo x > ${scene.outside}/made.txt` });
    expect(outcome.isError).toBe(true);
    expect(existsSync(path.join(scene.outside, 'made.txt'))).toBe(false);
    expect(outcome.content).toContain(
      `it tried to write ${scene.outside}/made.txt, outside what the sandbox lets it write`,
    );
    expect(outcome.content).toContain('"outside_sandbox": true; the person will be asked');
  });

  it('asks the person before running a command outside the sandbox, and runs it there once allowed', async () => {
    const asked: ApprovalQuestion[] = [];
    const approvals = new PendingApprovals(
      (question) => asked.push(question),
      () => {},
    );
    const { run } = setup(headlessGate({ mode: 'sandbox' }));
    // The panel's gate: the mode's rules, and a person to answer.
    const panelGate = new PermissionGate(kindRules({ mode: 'sandbox' }), approvals);
    applyPermissions(panelGate, { mode: 'sandbox' });
    const panel = setup(panelGate);
    const pending = panel.run({ command: `echo x > ${scene.outside}/made.txt`, outside_sandbox: true });
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]?.cause).toEqual({ kind: 'sandbox' });
    approvals.answer(asked[0]?.callId ?? '', 'once');
    const outcome = await pending;
    expect(outcome.isError).toBe(false);
    expect((outcome.result as ExecRun).sandbox).toBeUndefined();
    expect(readFileSync(path.join(scene.outside, 'made.txt'), 'utf8')).toBe('x\n');
    // Headless, nobody can answer: refused, with what would allow it.
    const refused = await run({ command: 'true', outside_sandbox: true });
    expect(refused.content).toContain('asked to run outside the sandbox');
  });

  it('stops a sandboxed command and everything it started', async () => {
    const { run, sink } = setup(headlessGate({ mode: 'sandbox' }));
    const stop = new AbortController();
    const mark = randomUUID();
    const sleepsLeft = (): number[] => sleepsMarked(mark);
    const said = new Promise<void>((resolve) => {
      sink.onEvent = (event) => {
        if (event.type === 'tool_progress' && event.progress.text.includes('started')) resolve();
      };
    });
    const pending = run(
      { command: `export TEST_MARK=${mark}; (sleep 300 &); setsid sleep 300 & sleep 300 & echo started; wait` },
      stop.signal,
    );
    await said;
    // All three running inside (one left the group, one its session) before the Stop.
    await expect.poll(() => sleepsLeft().length).toBe(3);
    stop.abort();
    const outcome = await pending;
    expect(outcome.content).toMatch(/^Cancelled and stopped/);
    expect(sleepsLeft()).toEqual([]);
  });

  it('runs npm test of a small project inside', async () => {
    await writeFile(
      path.join(scene.workspace, 'package.json'),
      JSON.stringify({ name: 'small', version: '1.0.0', scripts: { test: 'node test.js' } }),
    );
    await mkdir(path.join(scene.workspace, 'lib'));
    await writeFile(path.join(scene.workspace, 'lib', 'add.js'), 'module.exports = (a, b) => a + b;\n');
    await writeFile(
      path.join(scene.workspace, 'test.js'),
      "const assert = require('node:assert'); const fs = require('node:fs');\n" +
        "assert.strictEqual(require('./lib/add.js')(2, 3), 5);\n" +
        "fs.writeFileSync('/tmp/scratch', 'x'); fs.writeFileSync('result.txt', 'passed');\n" +
        "console.log('all tests passed');\n",
    );
    const { run } = setup(headlessGate({ mode: 'sandbox', sandbox: { ...DEFAULT_SANDBOX_RULES, writable: [] } }));
    const outcome = await run({ command: 'npm test --cache /tmp/npm-cache --logs-dir /tmp/npm-logs' });
    expect(outcome.content).toContain('all tests passed');
    expect(outcome.isError).toBe(false);
    expect(readFileSync(path.join(scene.workspace, 'result.txt'), 'utf8')).toBe('passed');
  });

  it('runs a terminal in the sandbox, its shell still in its terminal', async () => {
    const table = new ProcessTable({ limits: () => DEFAULT_PROCESS_LIMITS, killGraceMs: 300 });
    try {
      const sessionDir = path.join(scene.root, 'session');
      const registry = new ToolRegistry({
        workspace: scene.workspace,
        sessionDir,
        sink: new StatusRecorder(),
        gate: headlessGate({ mode: 'sandbox' }),
        readableRoots: [sessionDir],
      });
      registry.register(execTool({ shell: '/bin/sh', processes: table, settleMs: 300 }), ...processTools(table));
      let n = 0;
      const call = (name: string, args: Record<string, unknown>) => registry.call({ callId: `t${++n}`, name, args });
      const started = await call('exec', { command: 'sh -i', tty: true });
      expect(started.content).toMatch(/^Running in a terminal as p1/);
      await call('process_input', {
        id: 'p1',
        text: 'echo $((6*7)) $(cat /proc/1/comm); test -t 0 && echo tty-$((2+3))\n',
      });
      const seen = await call('process_output', { id: 'p1', wait_for: '^tty-5$', timeout_s: 30 });
      expect(seen.content).toContain('42 bwrap');
    } finally {
      await table.close();
    }
  });

  it('asks about every command where no sandbox can start', () => {
    expect(rulesForMode('sandbox', () => true).exec).toBe('allow');
    expect(rulesForMode('sandbox', () => false).exec).toBe('ask');
    expect(rulesForMode('sandbox', () => false).write).toBe('ask');
  });
});

/** `sleep 300` processes with TEST_MARK=mark that are still there. */
function sleepsMarked(mark: string): number[] {
  const left: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (
        cmdline === 'sleep\u0000300\u0000' &&
        environ.includes(`TEST_MARK=${mark}\u0000`) &&
        environ.includes(CALL_MARKER_VAR) &&
        state !== 'Z'
      )
        left.push(Number(entry));
    } catch {
      // Gone.
    }
  }
  return left;
}

describe('the plan mode', () => {
  it('runs a command that only reads without a question, in a read-only sandbox', async () => {
    await writeFile(path.join(scene.workspace, 'notes.txt'), 'first note\n');
    const { run } = setup(headlessGate({ mode: 'plan' }));
    const outcome = await run({ command: 'cat notes.txt && ls' });
    expect(outcome.isError).toBe(false);
    const result = outcome.result as ExecRun;
    expect(result.output).toContain('first note');
    expect(result.sandbox).toMatch(/^read-only: writes only its own \/tmp/);
  });

  it('stops a command that writes the workspace, changes nothing, and says why', async () => {
    await writeFile(path.join(scene.workspace, 'notes.txt'), 'first note\n');
    const { run } = setup(headlessGate({ mode: 'plan' }));
    const outcome = await run({ command: 'echo changed > notes.txt; echo new > made.txt' });
    expect(outcome.isError).toBe(true);
    expect(readFileSync(path.join(scene.workspace, 'notes.txt'), 'utf8')).toBe('first note\n');
    expect(existsSync(path.join(scene.workspace, 'made.txt'))).toBe(false);
    expect(outcome.content).toContain('nothing of the workspace changes until a plan is approved');
  });

  it('reaches no network', async () => {
    const { run } = setup(headlessGate({ mode: 'plan' }));
    const outcome = await run({
      command: `node -e "require('net').connect(9, '127.0.0.1').on('error', (e) => { console.log(e.code); process.exit(3); })"`,
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('it needed the network, and the sandbox has none');
  });
});
