import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import type { StatusEvent, ToolProgressEvent } from '../../../protocol/events.ts';
import { ManualClock } from '../../../test/manual-clock.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { execTool, type ExecToolOptions } from './exec.ts';
import { runInGroup } from './run-in-group.ts';
import { captureOutput, outputFields, type ExecRun } from './exec-output.ts';
import { LIVE_WINDOW_BYTES } from './output-accumulator.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover, type ApprovalQuestion, type Approver } from '../permission-gate.ts';
import { countLines, DEFAULT_SPILL_LIMITS, spillPath } from '../policies.ts';
import { ToolRegistry } from '../registry.ts';

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-exec-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A sink that records events and lets a test act on them as they arrive. */
class WatchingSink extends StatusRecorder {
  onEvent: (event: StatusEvent) => void = () => {};

  override emit(event: StatusEvent): void {
    super.emit(event);
    this.onEvent(event);
  }
}

function setup(options: ExecToolOptions = {}, approver: Approver = new RefuseApprover(() => 'nobody to ask')) {
  const sink = new WatchingSink();
  const gate = new PermissionGate(ALLOW_ALL, approver);
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, readableRoots: [sessionDir] });
  registry.register(execTool({ shell: '/bin/sh', killGraceMs: 500, ...options }));
  let calls = 0;
  const run = (args: Record<string, unknown>, signal?: AbortSignal) => {
    calls += 1;
    return registry.call({ callId: `call-${calls}`, name: 'exec', args, ...(signal ? { signal } : {}) });
  };
  return { registry, sink, gate, run };
}

function progressTexts(sink: StatusRecorder): string[] {
  return sink.ofType('tool_progress').map((event: ToolProgressEvent) => event.progress.text);
}

/** True while the process exists and is not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  const statFile = `/proc/${pid}/stat`;
  if (!existsSync(statFile)) return false;
  try {
    const fields = readFileSync(statFile, 'utf8');
    return fields.slice(fields.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function pidsIn(text: string): number[] {
  return [...text.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));
}

describe('exec', () => {
  it('interleaves stdout and stderr in the order they were written and reports exit code 0', async () => {
    const { run } = setup();
    const outcome = await run({ command: 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three' });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toMatch(/^Exit code 0 · \d+ ms|^Exit code 0 · [\d.]+ s/);
    expect(outcome.content.split('\n').slice(1).join('\n')).toBe('one\ntwo\nthree\n');
    const result = outcome.result as ExecRun;
    expect(result).toMatchObject({
      command: 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three',
      status: 'exited',
      exit_code: 0,
      signal: null,
      output: 'one\ntwo\nthree\n',
      output_bytes: 14,
    });
  });

  it('reports a non-zero exit code as an error with the output kept', async () => {
    const { run } = setup();
    const outcome = await run({ command: 'echo oops >&2; exit 3' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Exit code 3 · /);
    expect(outcome.content.endsWith('\noops\n')).toBe(true);
  });

  it('names the signal that killed the command', async () => {
    const { run } = setup();
    const outcome = await run({ command: 'kill -SEGV $$' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Killed by SIGSEGV · /);
  });

  it('counts a last line without a newline against the in-memory line limit, so a cut output is always in the spill file', async () => {
    const { run } = setup();
    // 1992 terminated lines (the in-memory line limit) and one more without a newline.
    const outcome = await run({ command: "seq 1 1992; printf 'last'" });
    const result = outcome.result as ExecRun;
    expect(result.output_path).toBe(spillPath(sessionDir, 'call-1'));
    expect(await readFile(spillPath(sessionDir, 'call-1'), 'utf8')).toMatch(/^1\n2\n[\s\S]*\n1992\nlast$/);
    expect(result.output.endsWith('1992\nlast')).toBe(true);
    expect(outcome.content).not.toMatch(/could not be kept/);
  });

  it('says so when a successful command printed nothing', async () => {
    const { run } = setup();
    const outcome = await run({ command: 'true' });
    expect(outcome.content).toMatch(/^Exit code 0 · .*\n\(no output\)$/);
  });

  it('runs in the given folder inside the workspace', async () => {
    await mkdir(path.join(workspace, 'sub'));
    const { run } = setup();
    const outcome = await run({ command: 'pwd', cwd: 'sub' });
    expect((outcome.result as ExecRun).output).toBe(`${path.join(workspace, 'sub')}\n`);
  });

  it('refuses a folder outside the workspace without running anything', async () => {
    const { run } = setup();
    const outcome = await run({ command: `touch ${path.join(root, 'escaped')}`, cwd: '..' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/outside the workspace/);
    expect(existsSync(path.join(root, 'escaped'))).toBe(false);
  });

  it('asks the permission gate with exactly the command', async () => {
    const questions: ApprovalQuestion[] = [];
    const { run, gate } = setup({}, { ask: async (question) => (questions.push(question), 'deny') });
    gate.setRule('exec', 'ask');
    const outcome = await run({ command: 'rm -rf build && make "all"' });
    expect(outcome.isError).toBe(true);
    expect(questions.map((question) => question.request.detail)).toEqual(['rm -rf build && make "all"']);
  });

  it('reports a shell that cannot start as a failure to start', async () => {
    const { run } = setup({ shell: path.join(root, 'no-such-shell') });
    const outcome = await run({ command: 'echo hi' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Failed to start: .*ENOENT/);
  });

  it('shows a character split across two writes whole in every report and in the result', async () => {
    const { run, sink } = setup();
    const outcome = await run({ command: "printf 'price: \\342\\202'; sleep 0.3; printf '\\254\\n'" });
    expect(outcome.content.endsWith('\nprice: €\n')).toBe(true);
    const texts = progressTexts(sink);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(texts.some((text) => text.includes('\ufffd'))).toBe(false);
    expect(texts.at(-1)).toBe('price: €\n');
  });

  it('stops the whole process tree on timeout, keeps the partial output and leaves no survivors', async () => {
    const { run } = setup();
    // One child that ignores SIGTERM, so the SIGKILL after the grace period is needed too.
    const command = "sleep 300 & echo pid=$!; (trap '' TERM; exec sleep 301) & echo pid=$!; echo pid=$$; wait";
    const outcome = await run({ command, timeout_s: 1 });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Timed out and stopped/);
    const pids = pidsIn(outcome.content);
    expect(pids).toHaveLength(3);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('stops the whole process tree when the call is cancelled', async () => {
    const { run, sink } = setup();
    const controller = new AbortController();
    sink.onEvent = (event) => {
      if (event.type === 'tool_progress' && event.progress.text.includes('ready')) controller.abort();
    };
    const command =
      "sleep 300 & echo pid=$!; (trap '' TERM; exec sleep 301) & echo pid=$!; echo pid=$$; echo ready; wait";
    const outcome = await run({ command }, controller.signal);
    expect(outcome.content).toMatch(/^Cancelled and stopped/);
    const pids = pidsIn(outcome.content);
    expect(pids).toHaveLength(3);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('keeps long output in one spill file and gives the model a tail within the limits', async () => {
    const { run, sink } = setup();
    const outcome = await run({ command: 'seq 1 200000' });
    const file = spillPath(sessionDir, 'call-1');
    const complete = await readFile(file, 'utf8');
    expect(complete.split('\n').length - 1).toBe(200000);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.byteLength(outcome.content)).toBeLessThanOrEqual(DEFAULT_SPILL_LIMITS.maxBytes);
    expect(countLines(outcome.content)).toBeLessThanOrEqual(DEFAULT_SPILL_LIMITS.maxLines);
    expect(outcome.content).toContain(`The complete output is in ${file}`);
    expect(outcome.content.endsWith('\n199999\n200000\n')).toBe(true);
    // The registry's own spill policy did not cut it again.
    expect(outcome.content).not.toMatch(/cut from this output/);
    const shown = outcome.content.slice(outcome.content.indexOf(']\n') + 2);
    const firstShown = Number(shown.split('\n')[0]);
    expect(outcome.content).toContain(`this tail starts at line ${firstShown}`);
    expect(progressTexts(sink).every((text) => Buffer.byteLength(text) <= 64 * 1024)).toBe(true);
  });

  it('echoes to the card a small structured result: how it ended and the end of the output', async () => {
    const { run, sink } = setup();
    await run({ command: 'seq 1 3000' });
    const completed = sink.ofType('tool_completed')[0];
    expect(completed?.is_error).toBe(false);
    expect(completed?.result).toEqual({
      kind: 'exec',
      command: 'seq 1 3000',
      status: 'exited',
      exit_code: 0,
      signal: null,
      duration_ms: expect.any(Number),
      output_bytes: 13893,
      output_lines: 3000,
      // 3000 lines are over the model's limit of lines, so the complete output is in a file.
      output_path: spillPath(sessionDir, 'call-1'),
      output: expect.stringMatching(/^\d+\n(.|\n)*\n2999\n3000\n$/),
      output_cut: true,
    });
    expect(Buffer.byteLength(JSON.stringify(completed?.result))).toBeLessThanOrEqual(5 * 1024);
  });

  it('echoes a failing command structured too, the error decided by its exit code', async () => {
    const { run, sink } = setup();
    await run({ command: 'echo broken >&2; exit 3' });
    expect(sink.ofType('tool_completed')[0]).toMatchObject({
      is_error: true,
      result: { status: 'exited', exit_code: 3, output: 'broken\n', output_cut: false },
    });
  });

  it('keeps binary output within the limits, so the complete output file is never overwritten', async () => {
    const { run } = setup();
    const outcome = await run({ command: 'head -c 300000 /dev/urandom' });
    expect(Buffer.byteLength(outcome.content)).toBeLessThanOrEqual(DEFAULT_SPILL_LIMITS.maxBytes);
    expect((await stat(spillPath(sessionDir, 'call-1'))).size).toBe(300000);
  });

  it('keeps binary output within the limits when its spill file cannot be written', async () => {
    // A file where the spill folder should be: neither the output file nor the spill policy can write there.
    await writeFile(path.join(sessionDir, 'tool-output'), '');
    const { run } = setup();
    const outcome = await run({ command: 'head -c 300000 /dev/urandom' });
    expect(outcome.content).toMatch(/^Exit code 0 · /);
    expect(outcome.content).toMatch(/The complete output could not be kept/);
    expect(Buffer.byteLength(outcome.content)).toBeLessThanOrEqual(DEFAULT_SPILL_LIMITS.maxBytes);
    // The tail exec chose is what the model gets: the spill policy did not cut it again.
    expect(outcome.content).not.toMatch(/cut from this output/);
  });

  it('sends progress through the registry as live events only, before the completion', async () => {
    const clock = new ManualClock();
    const { run, sink } = setup({ clock });
    await run({ command: 'echo a; echo b' });
    const types = sink.events.map((event) => event.type);
    expect(types[0]).toBe('tool_started');
    expect(types.at(-1)).toBe('tool_completed');
    expect(types.filter((type) => type === 'tool_progress').length).toBeGreaterThanOrEqual(1);
    expect(progressTexts(sink).at(-1)).toBe('a\nb\n');
  });

  it('keeps memory bounded and reports small for 100 MB of output (counters, not timings)', async () => {
    const total = 100 * 1024 * 1024;
    // Time advances 1 ms per chunk, so the throttle sees a fast, steady stream.
    const clock = new ManualClock();
    let chunks = 0;
    let reportBytes = 0;
    let largestReport = 0;
    const ctx = {
      callId: 'big',
      sessionDir,
      report: (progress: { text: string }) => {
        const bytes = Buffer.byteLength(progress.text);
        reportBytes += bytes;
        largestReport = Math.max(largestReport, bytes);
      },
    };
    const capture = captureOutput(ctx, { clock });
    const end = await runInGroup({
      shell: '/bin/sh',
      command: `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${total}`,
      cwd: workspace,
      env: process.env,
      timeoutMs: 600_000,
      killGraceMs: 500,
      signal: new AbortController().signal,
      clock,
      append: (chunk) => {
        chunks += 1;
        clock.advance(1);
        return capture.append(chunk);
      },
      drained: () => capture.drained(),
    });
    const final = await capture.finish();
    const fields = outputFields(final);

    expect(end).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(fields.output_bytes).toBe(total);
    expect((await stat(spillPath(sessionDir, 'big'))).size).toBe(total);
    // Memory: what is held for the result stays near the model's limit, and the file's queue near one read.
    expect(capture.accumulator.counters.peakHeldBytes).toBeLessThanOrEqual(DEFAULT_SPILL_LIMITS.maxBytes + 64 * 1024);
    expect(capture.accumulator.counters.peakPendingWriteBytes).toBeLessThanOrEqual(1024 * 1024);
    // Reports: each bounded by the live window, one per 150 ms of the stream at most.
    expect(largestReport).toBeLessThanOrEqual(LIVE_WINDOW_BYTES);
    expect(capture.reporter.counters.sent).toBeLessThanOrEqual(Math.ceil(chunks / 150) + 2);
    expect(capture.reporter.counters.bytesSent).toBe(reportBytes);
    expect(reportBytes).toBeLessThan(total / 20);
  });
});
