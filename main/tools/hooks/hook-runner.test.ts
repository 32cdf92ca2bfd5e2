import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES } from '../../../protocol/sandbox.ts';
import { answerOf } from './hook-answer.ts';
import type { HookCommand } from './hook-config.ts';
import { HOOK_STDOUT_LIMIT, runHookCommand } from './hook-runner.ts';

// A hook's command, run as exec runs commands, and how its end reads as a decision: the faults a
// hook can bring (a hang, endless output, an answer that is not JSON, a crash) each decide nothing,
// or what the hook's own setting says, and are named.

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-hook-run-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function hook(command: string, extra: Partial<HookCommand> = {}): HookCommand {
  return {
    event: 'PreToolUse',
    matcher: '',
    command,
    timeoutS: 10,
    onTimeout: 'continue',
    file: 'settings.json',
    line: 1,
    origin: 'user',
    ...extra,
  };
}

async function run(command: string, extra: Partial<HookCommand> = {}, input: unknown = { tool_name: 'exec' }) {
  const one = hook(command, extra);
  const ran = await runHookCommand(one, input, { workspace, signal: new AbortController().signal, killGraceMs: 200 });
  return { ran, answer: answerOf(one, ran) };
}

it('gives the event on stdin as JSON, runs in the workspace, and reads a JSON answer', async () => {
  const { ran, answer } = await run(
    `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({hookSpecificOutput:{permissionDecision:"deny",permissionDecisionReason:JSON.parse(s).tool_name+" in "+process.cwd()}})))'`,
  );
  expect(ran.status).toBe('exited');
  expect(answer).toEqual({ decision: 'deny', reason: `exec in ${workspace}` });
});

it('kills a hook that hangs at its timeout, with what it started: no decision, or a deny when it is set so', async () => {
  const { ran, answer } = await run('sleep 30 & sleep 30', { timeoutS: 0.3 });
  expect(ran.status).toBe('timed_out');
  expect(answer).toEqual({
    decision: 'failed',
    notice: 'The hook timed out after 0.3 s and was stopped. It decided nothing.',
  });
  const denied = await run('sleep 30', { timeoutS: 0.3, onTimeout: 'deny' });
  expect(denied.answer).toMatchObject({ decision: 'deny', reason: expect.stringContaining('set to deny') });
});

it('cuts a hook that prints 100 MB, reading only the head of its answer', async () => {
  const { ran, answer } = await run(`head -c 100000000 /dev/zero | tr '\\0' '{'`);
  expect(ran.stdout.length).toBe(HOOK_STDOUT_LIMIT);
  expect(ran.cut.stdout).toBe(100_000_000 - HOOK_STDOUT_LIMIT);
  expect(answer).toMatchObject({ decision: 'failed', notice: expect.stringContaining('was cut at 1048576 bytes') });
});

it('names invalid JSON output with its first bytes', async () => {
  const { answer } = await run(`echo '{"decision": block}'`);
  expect(answer.decision).toBe('failed');
  expect(answer.notice).toContain('it begins "{\\"decision\\": block}"');
});

it('reads exit code 2 as a deny with stderr as the reason, and another code as no decision', async () => {
  expect((await run('echo "no force-push" >&2; exit 2')).answer).toEqual({ decision: 'deny', reason: 'no force-push' });
  const failed = (await run('echo broken >&2; exit 3')).answer;
  expect(failed).toEqual({
    decision: 'failed',
    notice: 'The hook exited with code 3; it decided nothing. It said: broken',
  });
  const stop = (await run('echo "tests are failing" >&2; exit 2', { event: 'Stop' })).answer;
  expect(stop).toEqual({ decision: 'block', reason: 'tests are failing' });
});

it('reads plain stdout as context where Claude Code does, and blocks and context from JSON', async () => {
  expect((await run('echo "branch: main"', { event: 'SessionStart' })).answer).toEqual({
    decision: 'context',
    context: 'branch: main',
  });
  expect((await run('echo "just talk"', { event: 'PreToolUse' })).answer).toEqual({ decision: 'none' });
  const blocked = (await run(`echo '{"decision": "block", "reason": "tests are failing"}'`, { event: 'Stop' })).answer;
  expect(blocked).toEqual({ decision: 'block', reason: 'tests are failing' });
  const added = await run(`echo '{"hookSpecificOutput": {"additionalContext": "lint is clean"}}'`, {
    event: 'PostToolUse',
  });
  expect(added.answer).toEqual({ decision: 'context', context: 'lint is clean' });
});

it('a hook that cannot start decides nothing and says why', async () => {
  const one = hook('true');
  const ran = await runHookCommand(
    one,
    {},
    { workspace: path.join(workspace, 'gone'), signal: new AbortController().signal },
  );
  expect(ran.status).toBe('failed_to_start');
  expect(answerOf(one, ran)).toMatchObject({ decision: 'failed', notice: expect.stringContaining('could not start') });
});

it("runs a hook in the sandbox when the session's mode runs commands in one: outside the workspace is read-only", async () => {
  const outside = await mkdtemp(path.join('/var/tmp', 'aether-hook-outside-'));
  try {
    const probe = `echo x > ${outside}/probe && echo wrote || echo refused; echo y > inside.txt && echo inside`;
    const one = hook(probe);
    const signal = new AbortController().signal;
    const sandboxed = await runHookCommand(one, {}, { workspace, signal, sandbox: DEFAULT_SANDBOX_RULES });
    expect(sandboxed.stdout).toBe('refused\ninside\n');
    const plain = await runHookCommand(one, {}, { workspace, signal });
    expect(plain.stdout).toBe('wrote\ninside\n');
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});
