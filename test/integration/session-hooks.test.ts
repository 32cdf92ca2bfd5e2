import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readSessionFile } from '../../main/session/replay.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { queueOf } from '../../protocol/queue.ts';
import { hookRuns, HookRig } from '../hook-rig.ts';

// The hooks of a session's moments, end to end with real shell commands: UserPromptSubmit,
// SessionStart, Stop, PreCompact and Notification; what they add reaches the model as a context
// message that replays without running the hook again.

const rig = new HookRig();
beforeEach(() => rig.setUp());
afterEach(() => rig.tearDown());

const userTexts = () =>
  rig
    .lastMessages()
    .filter((message) => message.role === 'user')
    .map((message) => String(message.content));

it('blocks a prompt with a UserPromptSubmit hook: the model never sees it and the turn says why', async () => {
  const guard = `grep -q password && { echo "do not paste secrets" >&2; exit 2; } || true`;
  await rig.settings(path.join(rig.home, 'settings.json'), {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: guard }] }],
  });
  const { session, recorder } = await rig.open({ steps: [{ text: ['Hello.'] }] });
  session.send('my password is hunter2');
  const outcome = await session.idle();
  expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('do not paste secrets') });
  expect(rig.server?.requests).toHaveLength(0);
  expect(recorder.events.some((event) => event.type === 'user_message')).toBe(false);

  session.send('say hello');
  expect((await session.idle())?.status).toBe('completed');
  expect(userTexts()).toEqual(['say hello']);
});

it('sends what SessionStart and UserPromptSubmit hooks print as context, and replays it without running them', async () => {
  const count = path.join(rig.home, 'count.txt');
  await rig.settings(path.join(rig.home, 'settings.json'), {
    SessionStart: [
      { matcher: 'startup', hooks: [{ type: 'command', command: `echo start >> ${count}; echo "branch: main"` }] },
    ],
    UserPromptSubmit: [
      {
        hooks: [
          { type: 'command', command: `echo '{"hookSpecificOutput": {"additionalContext": "today is release day"}}'` },
        ],
      },
    ],
  });
  const { session } = await rig.open({ steps: [{ text: ['One.'] }, { text: ['Two.'] }] });
  session.send('first');
  await session.idle();
  const first = userTexts();
  expect(first[0]).toContain('<hook_context event="SessionStart"');
  expect(first[0]).toContain('branch: main');
  expect(first[1]).toContain('today is release day');
  expect(first[2]).toBe('first');
  session.send('second');
  await session.idle();
  // SessionStart runs once per opening; UserPromptSubmit at every prompt.
  expect(await readFile(count, 'utf8')).toBe('start\n');
  expect(userTexts().filter((text) => text.includes('today is release day'))).toHaveLength(2);

  const id = session.id;
  const file = session.log.file;
  await rig.closeAll();
  const replay = await readSessionFile(file);
  expect(
    replay.events
      .filter((event) => event.type === 'context_message')
      .map((event) => event.type === 'context_message' && event.source),
  ).toEqual([
    expect.stringMatching(/^SessionStart hook: echo start/),
    expect.stringMatching(/^UserPromptSubmit hook: echo/),
    expect.stringMatching(/^UserPromptSubmit hook: echo/),
  ]);
  // A resumed session's context holds them, without running a hook (the resume's own SessionStart matches `resume` only).
  const again = await rig.open({ steps: [{ text: ['Three.'] }] }, { resume: id });
  expect(JSON.stringify(again.session.context())).toContain('branch: main');
  expect(await readFile(count, 'utf8')).toBe('start\n');
});

it('a Stop hook blocks the end once with "tests are failing": the model goes on and the turn then ends', async () => {
  // Blocks until the model has written the fix, then lets it stop.
  const check = `test -f fixed.txt || { echo "tests are failing" >&2; exit 2; }`;
  await rig.settings(path.join(rig.workspace, '.claude', 'settings.json'), {
    Stop: [{ hooks: [{ type: 'command', command: check }] }],
  });
  const { session, hooks, recorder } = await rig.open({
    steps: [
      { text: ['All done.'] },
      { tool_calls: [{ id: 'call_fix', name: 'write_file', args: { path: 'fixed.txt', content: 'ok\n' } }] },
      { text: ['Fixed, now done.'] },
    ],
  });
  await hooks?.approve();
  session.send('Fix the tests');
  expect((await session.idle())?.status).toBe('completed');
  expect(rig.server?.requests).toHaveLength(3);
  const told = rig.server?.requests[1]?.body['messages'] as { role: string; content: unknown }[];
  expect(String(told.at(-1)?.content)).toContain('a Stop hook blocked it: tests are failing');
  expect(hookRuns(recorder.events).map((run) => run.decision)).toEqual(['block', 'none']);
  const ends = recorder.events.filter((event) => event.type === 'turn_completed');
  expect(ends).toHaveLength(1);
});

it('runs PreCompact before a compaction by hand, and Notification when a call waits for the person', async () => {
  const log = path.join(rig.home, 'events.txt');
  const record = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);require("fs").appendFileSync(${JSON.stringify(log)},e.hook_event_name+" "+(e.trigger??e.message)+"\\n")})'`;
  await rig.settings(path.join(rig.home, 'settings.json'), {
    PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: record }] }],
    Notification: [{ hooks: [{ type: 'command', command: record }] }],
  });
  const { session } = await rig.open(
    {
      steps: [
        { text: ['Hi.'] },
        { text: ['Summary of the work.'] },
        { tool_calls: [{ id: 'call_ask', name: 'exec', args: { command: 'true' } }] },
        { text: ['Done.'] },
      ],
    },
    { permissions: { mode: 'ask' } },
  );
  session.send('hello');
  await session.idle();
  expect(await session.compact('keep the plan')).toMatchObject({ ok: true });
  session.send('run it');
  await expect.poll(async () => readFile(log, 'utf8').catch(() => '')).toContain('Notification');
  await session.stop();
  expect((await readFile(log, 'utf8')).split('\n').filter(Boolean)).toEqual([
    'PreCompact manual',
    'Notification ÆtherCodex needs your permission to use exec',
  ]);
});

it('ends a running hook and what it started when the turn is stopped: the call never runs', async () => {
  await rig.settings(path.join(rig.home, 'settings.json'), {
    PreToolUse: [{ matcher: 'exec', hooks: [{ type: 'command', command: 'sleep 31.7 & sleep 31.7' }] }],
  });
  const { session, recorder } = await rig.open({
    steps: [{ tool_calls: [{ id: 'call_slow', name: 'exec', args: { command: 'echo ran > ran.txt' } }] }],
  });
  session.send('Run');
  // The hook is running once its sleeps are there.
  await expect.poll(() => sleepers().length).toBe(2);
  await session.stop();
  expect(sleepers()).toEqual([]);
  expect(hookRuns(recorder.events)).toMatchObject([{ status: 'cancelled', decision: 'failed' }]);
  await expect(readFile(path.join(rig.workspace, 'ran.txt'))).rejects.toThrow(/ENOENT/);
});

/** The pids of the hook's `sleep 31.7` processes still running. */
function sleepers(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() === 'sleep 31.7';
      } catch {
        return false;
      }
    })
    .map(Number);
}

it("runs SubagentStop when an agent the session started ends, and the parent's call hooks in the agent, not its Stop", async () => {
  const log = path.join(rig.home, 'events.txt');
  const record = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);require("fs").appendFileSync(${JSON.stringify(log)},e.hook_event_name+" "+(e.agent??e.tool_name??"")+" "+(e.ending??"")+"\\n")})'`;
  await rig.settings(path.join(rig.home, 'settings.json'), {
    SubagentStop: [{ hooks: [{ type: 'command', command: record }] }],
    Stop: [{ hooks: [{ type: 'command', command: record }] }],
    PreToolUse: [{ matcher: 'list_dir', hooks: [{ type: 'command', command: record }] }],
  });
  const { session } = await rig.open(
    {
      steps: [
        {
          tool_calls: [
            { id: 'a-1', name: 'agent', args: { task: 'List the workspace (task sub-1).', agent: 'explore' } },
          ],
        },
        { text: ['It is listed.'] },
      ],
      streams: [
        {
          match: 'task sub-1',
          steps: [{ tool_calls: [{ id: 'l-1', name: 'list_dir', args: { path: '.' } }] }, { text: ['One folder.'] }],
        },
      ],
    },
    { agents: {} },
  );
  session.send('List it with an agent');
  expect((await session.idle())?.status).toBe('completed');
  expect((await readFile(log, 'utf8')).split('\n').filter(Boolean)).toEqual([
    'PreToolUse list_dir ',
    'SubagentStop explore completed',
    'Stop  ',
  ]);
});

// A UserPromptSubmit hook that blocks a prompt holding "password" and otherwise adds what it saw.
const PROMPT_GUARD = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s).prompt;if(p.includes("password")){console.error("do not paste secrets");process.exit(2)}console.log(JSON.stringify({hookSpecificOutput:{additionalContext:"hook saw: "+p}}))})'`;
// A call that waits for the file `go` in the workspace: messages sent meanwhile arrive mid-turn.
const WAIT_FOR_GO = {
  tool_calls: [{ id: 'call_wait', name: 'exec', args: { command: 'while [ ! -f go ]; do sleep 0.05; done; echo go' } }],
};

async function whenStarted(recorder: { events: StatusEvent[] }, callId: string): Promise<void> {
  await expect
    .poll(() => recorder.events.some((event) => event.type === 'tool_started' && event.call_id === callId))
    .toBe(true);
}

it('runs UserPromptSubmit on a steered and on a queued message: what it adds comes before each, and replays', async () => {
  await rig.settings(path.join(rig.home, 'settings.json'), {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: PROMPT_GUARD }] }],
  });
  const { session, recorder } = await rig.open({
    steps: [WAIT_FOR_GO, { text: ['Steered.'] }, { text: ['Queued turn.'] }],
  });
  session.send('Start');
  await whenStarted(recorder, 'call_wait');
  expect(session.send('Also mind the tests')).toMatchObject({ ok: true, value: { queued: true } });
  expect(session.send('Then write docs', undefined, undefined, { mode: 'queue' })).toMatchObject({ ok: true });
  await writeFile(path.join(rig.workspace, 'go'), '');
  await session.idle();

  const requests = rig.server!.requests;
  expect(requests).toHaveLength(3);
  const userOf = (index: number) =>
    (requests[index]!.body['messages'] as { role: string; content: unknown }[])
      .filter((message) => message.role === 'user')
      .map((message) => String(message.content));
  // The steer, after the running call, with its hook's context just before it.
  expect(userOf(1).slice(-2)).toEqual([
    expect.stringContaining('hook saw: Also mind the tests'),
    'Also mind the tests',
  ]);
  // The queued message, as the next turn, with its own.
  expect(userOf(2).slice(-2)).toEqual([expect.stringContaining('hook saw: Then write docs'), 'Then write docs']);
  const prompts = hookRuns(recorder.events).filter((run) => run.hook_event === 'UserPromptSubmit');
  expect(prompts).toHaveLength(3);

  // Replayed from the log, the context is what the model was sent, without running the hook again.
  expect((await readSessionFile(session.log.file)).context).toEqual(session.context());
});

it('a UserPromptSubmit hook blocks a steer: the model never sees it, the turn goes on, and no reopening offers it again', async () => {
  await rig.settings(path.join(rig.home, 'settings.json'), {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: PROMPT_GUARD }] }],
  });
  const { session, recorder } = await rig.open({ steps: [WAIT_FOR_GO, { text: ['Done waiting.'] }] });
  session.send('Start');
  await whenStarted(recorder, 'call_wait');
  session.send('my password is hunter2');
  await writeFile(path.join(rig.workspace, 'go'), '');
  expect((await session.idle())?.status).toBe('completed');

  const requests = rig.server!.requests;
  expect(requests).toHaveLength(2);
  expect(JSON.stringify(requests[1]!.body)).not.toContain('hunter2');
  expect(
    recorder.events
      .filter((event) => event.type === 'user_message')
      .map((event) => event.type === 'user_message' && event.text),
  ).toEqual(['Start']);
  const blocked = hookRuns(recorder.events).filter((run) => run.decision === 'block');
  expect(blocked).toMatchObject([
    { hook_event: 'UserPromptSubmit', reason: expect.stringContaining('do not paste secrets') },
  ]);
  // Out of the saved list too: the session file holds no waiting message.
  expect(queueOf((await readSessionFile(session.log.file)).events).items).toEqual([]);
});
