import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { FixtureScriptInput } from '../../main/model/fixture-script.ts';
import { readSessionFile } from '../../main/session/replay.ts';
import { exportSession } from '../../main/agent/export/session-export.ts';
import { approveHooks, hooksScreen } from '../../main/agent/hooks.ts';
import { hookRuns, HookRig } from '../hook-rig.ts';

// PreToolUse and PostToolUse hooks, end to end: real shell commands configured in real settings
// files, the fixture model over HTTP, the built-in tools, the session log and its replay.

const rig = new HookRig();
let home: string;
let workspace: string;

beforeEach(async () => {
  await rig.setUp();
  ({ home, workspace } = rig);
});

afterEach(() => rig.tearDown());

const settings = (file: string, hooks: Record<string, unknown>) => rig.settings(file, hooks);
const open = (script: FixtureScriptInput) => rig.open(script);
const toolResults = () => rig.toolResults();

it('runs a PostToolUse formatter after write_file: the model is told the file changed, the checkpoint and the log hold both', async () => {
  // The formatter reads the event from stdin, as hooks written for Claude Code do.
  const formatter = `f=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.file_path))'); tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"`;
  await settings(path.join(home, 'settings.json'), {
    PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: formatter }] }],
  });
  const { session } = await open({
    steps: [
      { tool_calls: [{ id: 'call_w', name: 'write_file', args: { path: 'notes.txt', content: 'hello\n' } }] },
      { text: ['Done.'] },
    ],
  });
  session.send('Write the notes');
  expect((await session.idle())?.status).toBe('completed');

  expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('HELLO\n');
  const [result] = toolResults();
  expect(result).toMatch(
    /PostToolUse hook `f=\$\(node .*` ran after write_file and changed it; its sha256 is now [0-9a-f]{64}: read notes.txt again/,
  );

  const replay = await readSessionFile(session.log.file);
  const [ran] = hookRuns(replay.events);
  expect(ran).toMatchObject({ hook_event: 'PostToolUse', call_id: 'call_w', changed: ['notes.txt'], decision: 'none' });
  expect(ran?.source).toBe(path.join(home, 'settings.json') + ':7');
  // The checkpoint before the call has no file; the Changes of the call end at the formatted text.
  const completed = replay.events.find((event) => event.type === 'tool_completed');
  const checkpoint = completed?.type === 'tool_completed' ? completed.checkpoint?.id : undefined;
  expect(checkpoint).toBeTruthy();
  const store = await session.checkpoints.store();
  await store.rewind(checkpoint ?? '');
  await expect(readFile(path.join(workspace, 'notes.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
});

it('denies `git push --force` with a PreToolUse hook (exit code 2): the reason reaches the model and nothing runs', async () => {
  const guard = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s).tool_input.command;if(/git push.*--force/.test(c)){console.error("force-push is not allowed here");process.exit(2)}})'`;
  await settings(path.join(home, 'settings.json'), {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }],
  });
  const { session, recorder } = await open({
    steps: [
      { tool_calls: [{ id: 'call_push', name: 'exec', args: { command: 'git push --force > pushed.txt' } }] },
      { tool_calls: [{ id: 'call_ok', name: 'exec', args: { command: 'echo fine > ok.txt' } }] },
      { text: ['Done.'] },
    ],
  });
  session.send('Push it');
  expect((await session.idle())?.status).toBe('completed');

  const [denied, allowed] = toolResults();
  expect(denied).toContain('Denied by the PreToolUse hook `node -e');
  expect(denied).toContain('force-push is not allowed here');
  expect(allowed).toContain('Exit code 0');
  await expect(readFile(path.join(workspace, 'pushed.txt'))).rejects.toThrow(/ENOENT/);
  expect(await readFile(path.join(workspace, 'ok.txt'), 'utf8')).toBe('fine\n');
  const runs = hookRuns(recorder.events);
  expect(runs.map((run) => [run.call_id, run.decision])).toEqual([
    ['call_push', 'deny'],
    ['call_ok', 'none'],
  ]);
  expect(runs[0]?.reason).toBe('force-push is not allowed here');
});

it("rewrites a call's arguments with a PreToolUse hook's updatedInput, judged again by the gate", async () => {
  const rewrite = `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten > out.txt"}}}'`;
  await settings(path.join(workspace, '.claude', 'settings.json'), {
    PreToolUse: [{ matcher: 'exec', hooks: [{ type: 'command', command: rewrite }] }],
  });
  const { session, hooks, recorder } = await open({
    steps: [
      { tool_calls: [{ id: 'call_x', name: 'exec', args: { command: 'echo original > out.txt' } }] },
      { text: ['Done.'] },
    ],
  });
  // A workspace hook runs only once the person approved it.
  expect(hooks?.pending().map((hook) => hook.command)).toEqual([rewrite]);
  await hooks?.approve();
  session.send('Run it');
  expect((await session.idle())?.status).toBe('completed');
  expect(await readFile(path.join(workspace, 'out.txt'), 'utf8')).toBe('rewritten\n');
  expect(hookRuns(recorder.events)).toMatchObject([{ decision: 'rewrite', source: '.claude/settings.json:7' }]);
});

it('does not run a workspace hook before its approval, runs it after, and asks again when it changes', async () => {
  const file = path.join(workspace, '.aethercodex', 'settings.json');
  const mark = 'echo ran >> hook-ran.txt';
  await settings(file, { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: mark }] }] });
  const script = {
    steps: [{ tool_calls: [{ id: 'call_1', name: 'list_dir', args: {} }] }, { text: ['Done.'] }],
  };
  const first = await open(script);
  expect(first.hooks?.pending()).toHaveLength(1);
  first.session.send('List');
  await first.session.idle();
  await expect(readFile(path.join(workspace, 'hook-ran.txt'))).rejects.toThrow(/ENOENT/);
  await first.hooks?.approve();

  const second = await open(script);
  expect(second.hooks?.pending()).toEqual([]);
  second.session.send('List');
  await second.session.idle();
  expect(await readFile(path.join(workspace, 'hook-ran.txt'), 'utf8')).toBe('ran\n');

  await settings(file, { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: `${mark}; true` }] }] });
  const third = await open(script);
  expect(third.hooks?.pending().map((hook) => hook.command)).toEqual([`${mark}; true`]);
});

it('replays the decisions of a session without running its hooks again', async () => {
  const counted = `echo run >> ${JSON.stringify(path.join(home, 'count.txt'))}; echo 'blocked by policy' >&2; exit 2`;
  await settings(path.join(home, 'settings.json'), {
    PreToolUse: [{ matcher: 'exec', hooks: [{ type: 'command', command: counted }] }],
  });
  const { session } = await open({
    steps: [{ tool_calls: [{ id: 'call_d', name: 'exec', args: { command: 'true' } }] }, { text: ['Done.'] }],
  });
  session.send('Try');
  await session.idle();
  const file = session.log.file;
  const id = session.id;
  await rig.closeAll();
  expect(await readFile(path.join(home, 'count.txt'), 'utf8')).toBe('run\n');

  const replay = await readSessionFile(file);
  expect(hookRuns(replay.events)).toMatchObject([{ decision: 'deny', reason: 'blocked by policy', call_id: 'call_d' }]);
  const exported = await exportSession({ root: rig.root, id, format: 'markdown', env: {} });
  expect(exported.text).toContain('Hook: denied by hook: blocked by policy');
  const again = await rig.open({ steps: [{ text: ['Still here.'] }] }, { resume: id });
  const context = JSON.stringify(again.session.context());
  expect(context).toContain('blocked by policy');
  expect(await readFile(path.join(home, 'count.txt'), 'utf8')).toBe('run\n');
});

it("keeps a call's result and the session when a PostToolUse hook fails, and names the failure", async () => {
  await settings(path.join(home, 'settings.json'), {
    PostToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'echo "formatter crashed" >&2; exit 1' }] }],
  });
  const { session, recorder } = await open({
    steps: [{ tool_calls: [{ id: 'call_e', name: 'exec', args: { command: 'echo kept' } }] }, { text: ['Done.'] }],
  });
  session.send('Run');
  expect((await session.idle())?.status).toBe('completed');
  expect(toolResults()[0]).toContain('kept');
  expect(hookRuns(recorder.events)).toMatchObject([
    { decision: 'failed', notice: 'The hook exited with code 1; it decided nothing. It said: formatter crashed' },
  ]);
});

it('approves a workspace hook from the Settings list by id, and the open session runs it from its next call', async () => {
  await settings(path.join(workspace, '.aethercodex', 'settings.json'), {
    PreToolUse: [{ matcher: 'list_dir', hooks: [{ type: 'command', command: 'echo ran >> approved.txt' }] }],
  });
  const { session } = await open({
    steps: [
      { tool_calls: [{ id: 'call_1', name: 'list_dir', args: {} }] },
      { text: ['One.'] },
      { tool_calls: [{ id: 'call_2', name: 'list_dir', args: {} }] },
      { text: ['Two.'] },
    ],
  });
  session.send('List');
  await session.idle();
  const listed = await hooksScreen(home, workspace);
  expect(listed.hooks).toMatchObject([
    { event: 'PreToolUse', approved: false, source: '.aethercodex/settings.json:7' },
  ]);
  await expect(approveHooks(home, workspace, ['0'.repeat(24)])).rejects.toThrow(/no longer configured as it was shown/);
  const after = await approveHooks(home, workspace, [listed.hooks[0]?.id ?? '']);
  expect(after.hooks[0]?.approved).toBe(true);
  session.send('List again');
  await session.idle();
  expect(await readFile(path.join(workspace, 'approved.txt'), 'utf8')).toBe('ran\n');
});
