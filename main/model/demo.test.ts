import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ToolCallRequest } from '../../protocol/events.ts';
import { approvedPlanText, PLAN_APPROVED_MESSAGE, PLAN_MODE_LINE } from '../../protocol/plan.ts';
import { createModelAdapter } from './index.ts';
import { request, runStep } from '../../test/model-support.ts';
import type { ChatMessage, ModelAdapter } from './types.ts';

// The demo model over its in-process fixture server and the real Anthropic client. Its calls are
// carried out here on a real temp folder, so the test shows its arguments fit the workspace.

let workspace: string;
let adapter: ModelAdapter;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'aether-demo-'));
  adapter = createModelAdapter('demo', { demoChunkDelayMs: 0 });
});

afterEach(async () => {
  await adapter.close?.();
  await rm(workspace, { recursive: true, force: true });
});

type Result = { content: string; is_error: boolean };
type Runner = (call: ToolCallRequest) => Promise<Result>;

/** Carries out the demo's calls on the workspace, the way the file tools would. */
const onDisk: Runner = async (call) => {
  if (call.name === 'plan_propose') return { content: 'Plan proposed to the person.', is_error: false };
  const args = call.args as { path: string; content?: string; edits?: { old_text: string; new_text: string }[] };
  const path = join(workspace, args.path);
  switch (call.name) {
    case 'list_dir':
      return { content: (await readdir(path)).sort().join('\n'), is_error: false };
    case 'write_file':
      await writeFile(path, args.content ?? '', { flag: 'wx' }); // fails if the file exists
      return { content: `wrote ${args.path}`, is_error: false };
    case 'read_file':
      return { content: await readFile(path, 'utf8'), is_error: false };
    case 'patch_file': {
      const text = await readFile(path, 'utf8');
      const edit = args.edits?.[0];
      if (edit === undefined || text.split(edit.old_text).length !== 2)
        return { content: 'old_text must match exactly once', is_error: true };
      await writeFile(path, text.replace(edit.old_text, edit.new_text));
      return { content: `patched ${args.path}`, is_error: false };
    }
    default:
      return { content: `unknown tool ${call.name}`, is_error: true };
  }
};

/** One turn of a minimal agent loop; returns the calls made and the last step's text. */
async function playTurn(
  messages: ChatMessage[],
  prompt: string | string[],
  run: Runner,
  system?: string,
): Promise<{ calls: ToolCallRequest[]; finalText: string }> {
  for (const text of typeof prompt === 'string' ? [prompt] : prompt) messages.push({ role: 'user', content: text });
  const calls: ToolCallRequest[] = [];
  for (let step = 0; step < 10; step += 1) {
    const outcome = await runStep(adapter, request(messages, system === undefined ? {} : { system }));
    expect(outcome.error).toBeUndefined();
    const stepCalls = outcome.parts.flatMap((part) => (part.type === 'tool_call' ? [part.call] : []));
    messages.push({ role: 'assistant', content: outcome.text, tool_calls: stepCalls });
    if (stepCalls.length === 0) return { calls, finalText: outcome.text };
    for (const call of stepCalls) {
      calls.push(call);
      messages.push({ role: 'tool', call_id: call.call_id, name: call.name, ...(await run(call)) });
    }
  }
  throw new Error('the demo did not finish within 10 steps');
}

it('lists, writes, reads and patches a note in an empty workspace, then stops', async () => {
  const { calls, finalText } = await playTurn([], 'show me', onDisk);
  expect(calls.map((call) => [call.name, (call.args as { path: string }).path])).toEqual([
    ['list_dir', '.'],
    ['write_file', 'AETHER_DEMO.md'],
    ['read_file', 'AETHER_DEMO.md'],
    ['patch_file', 'AETHER_DEMO.md'],
  ]);
  expect(await readFile(join(workspace, 'AETHER_DEMO.md'), 'utf8')).toContain('Status: patched by the demo model.');
  expect(finalText).toContain('Patched: AETHER_DEMO.md');
});

it('writes under a free name when the workspace already has the note', async () => {
  await writeFile(join(workspace, 'AETHER_DEMO.md'), 'mine, keep it\n');
  const { calls } = await playTurn([], 'show me', onDisk);
  expect(calls.filter((call) => call.name !== 'list_dir').map((call) => (call.args as { path: string }).path)).toEqual([
    'AETHER_DEMO-2.md',
    'AETHER_DEMO-2.md',
    'AETHER_DEMO-2.md',
  ]);
  expect(await readFile(join(workspace, 'AETHER_DEMO.md'), 'utf8')).toBe('mine, keep it\n');
});

it('stops after a refused write and says how to allow it', async () => {
  const refuseWrites: Runner = (call) =>
    call.name === 'write_file'
      ? Promise.resolve({
          content: 'write_file denied: writes are not allowed headless (--allow write)',
          is_error: true,
        })
      : onDisk(call);
  const { calls, finalText } = await playTurn([], 'show me', refuseWrites);
  expect(calls.map((call) => call.name)).toEqual(['list_dir', 'write_file']);
  expect(finalText).toContain('The write was refused (write_file denied');
  expect(finalText).toContain('--allow write');
  expect(await readdir(workspace)).toEqual([]);
});

it('does not read the person their own refusal back when they turned the write down', async () => {
  const personRefuses: Runner = (call) =>
    call.name === 'write_file'
      ? Promise.resolve({
          content:
            'Denied by the user: every hunk of the change to AETHER_DEMO.md was rejected (1 hunk: hunk 1 (at the start)). Nothing was written.',
          is_error: true,
        })
      : onDisk(call);
  const { finalText } = await playTurn([], 'show me', personRefuses);
  expect(finalText).toContain('You turned down the write of AETHER_DEMO.md, so nothing was written.');
  expect(finalText).not.toContain('Denied by the user');
});

it('says the write failed, without blaming permissions, when the tool itself fails', async () => {
  const failWrites: Runner = (call) =>
    call.name === 'write_file' ? Promise.resolve({ content: 'disk full', is_error: true }) : onDisk(call);
  const { calls, finalText } = await playTurn([], 'show me', failWrites);
  expect(calls.map((call) => call.name)).toEqual(['list_dir', 'write_file']);
  expect(finalText).toContain('The write failed (disk full)');
  expect(finalText).not.toContain('--allow');
});

it('starts the tour again for the next message of the session', async () => {
  const messages: ChatMessage[] = [];
  await playTurn(messages, 'first', onDisk);
  const second = await playTurn(messages, 'again', onDisk);
  expect(second.calls.map((call) => call.name)).toEqual(['list_dir', 'write_file', 'read_file', 'patch_file']);
  expect((second.calls[1]?.args as { path: string }).path).toBe('AETHER_DEMO-2.md');
});

it('says how to allow writes as the refusal calls for: a mode that writes, or the headless flags', async () => {
  const refusing =
    (content: string): Runner =>
    (call) =>
      call.name === 'write_file' ? Promise.resolve({ content, is_error: true }) : onDisk(call);
  const modeRefusal = await playTurn(
    [],
    'show me',
    refusing('Denied: write_file (write) is not allowed in this session.'),
  );
  expect(modeRefusal.finalText).toContain('switch to ask or auto');
  expect(modeRefusal.finalText).not.toContain('--allow write');

  const headless = await playTurn(
    [],
    'show me',
    refusing(
      'Denied: write_file needs permission to change files (Create AETHER_DEMO.md), and nobody can answer a question in a headless run. Allow it with --allow write (--allow write,exec,ssh allows all three), or run with --permission-mode auto.',
    ),
  );
  // The refusal's first sentence, then the flags once, in the demo's words.
  expect(headless.finalText).toContain(
    'nobody can answer a question in a headless run). Run it again with --allow write',
  );
  expect(headless.finalText.match(/--allow write/g)).toHaveLength(1);
});

it('in plan mode writes nothing: it proposes the tour as a plan, and carries it out once approved', async () => {
  const system = `You are a test.\n\n${PLAN_MODE_LINE}`;
  const messages: ChatMessage[] = [];
  const planned = await playTurn(messages, 'show me', onDisk, system);
  expect(planned.calls.map((call) => call.name)).toEqual(['list_dir', 'plan_propose']);
  const plan = (planned.calls[1]?.args as { plan: string }).plan;
  expect(plan).toContain('Write AETHER_DEMO.md');
  expect(JSON.stringify(messages)).not.toContain('--allow write');
  expect(await readdir(workspace)).toEqual([]);

  // Approved (the mode switched, so the system prompt no longer says plan mode): the note is written.
  const approved = await playTurn(messages, [PLAN_APPROVED_MESSAGE, approvedPlanText(plan, [])], onDisk);
  expect(approved.calls.map((call) => [call.name, (call.args as { path: string }).path])).toEqual([
    ['write_file', 'AETHER_DEMO.md'],
    ['read_file', 'AETHER_DEMO.md'],
    ['patch_file', 'AETHER_DEMO.md'],
  ]);
  expect(await readFile(join(workspace, 'AETHER_DEMO.md'), 'utf8')).toContain('Status: patched by the demo model.');
});
