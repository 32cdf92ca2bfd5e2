import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { aether } from '../aether-cli.ts';
import { fastDemoModel } from '../acp-agent-process.ts';
import { AETHER_BIN } from '../aether-cli.ts';
import { acpxFrames, conversationProblems, type Frame } from '../acp-frames.ts';
import { readSessionFile } from '../../main/session/replay.ts';
import { startFixtureServer } from '../../main/model/fixture-server.ts';
import { reduceStatusEvents } from '../../renderer/store/transcript-reducer.ts';
import { emptyTranscript } from '../../renderer/store/transcript-types.ts';
import type { StatusEvent } from '../../protocol/events.ts';

// `aether acp` driven by acpx, the headless ACP client, as a person would run it
// (`acpx --agent 'aether acp --model demo' …`): the demo model's whole turn, a cancel, and the
// session it leaves, which the panel draws with the same cards as any other session's. Every
// frame acpx printed, both ways, is checked against the SDK's JSON schema.

const ACPX = createRequire(import.meta.url).resolve('acpx/dist/cli.js');

let root: string;
let workspace: string;
let sessions: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-acpx-'));
  workspace = path.join(root, 'ws');
  sessions = path.join(root, 'sessions');
  await import('node:fs/promises').then(({ mkdir, writeFile }) =>
    mkdir(workspace).then(() => writeFile(path.join(workspace, 'notes.txt'), 'kept as it is\n')),
  );
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

interface AcpxRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const agentCommand = (model: string): string =>
  [process.execPath, AETHER_BIN, 'acp', '--model', model, '--sessions', sessions]
    .map((part) => JSON.stringify(part))
    .join(' ');

/**
 * acpx with its state in the test's folder, starting `aether acp --model demo` (or the model
 * `demo` names); `started` resolves once its stdout holds `waitFor`.
 */
function acpx(
  args: string[],
  options: { waitFor?: string; demo?: { model: string; env: Record<string, string> } } = {},
): { done: Promise<AcpxRun>; started: Promise<void> } {
  const { waitFor, demo } = options;
  const agent = agentCommand(demo?.model ?? 'demo');
  const child = spawn(process.execPath, [ACPX, '--agent', agent, '--cwd', workspace, ...args], {
    cwd: workspace,
    env: {
      ...process.env,
      HOME: root,
      AETHERCODEX_HOME: path.join(root, 'home'),
      AETHERCODEX_SESSIONS: '',
      ...demo?.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let seen: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (seen = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (waitFor && stdout.includes(waitFor)) seen();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<AcpxRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { done, started };
}

function updates(frames: readonly Frame[]): acp.SessionUpdate[] {
  return frames
    .filter(({ from, frame }) => from === 'agent' && frame.method === 'session/update')
    .map(({ frame }) => (frame.params as acp.SessionNotification).update);
}

async function onlySession(): Promise<StatusEvent[]> {
  const files = (await readdir(sessions)).filter((name) => name.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return (await readSessionFile(path.join(sessions, files[0]!))).events;
}

/** The cards the panel draws for a session's events: each call's tool, echo kind, state and approvals. */
function cards(events: readonly StatusEvent[]): string[] {
  const transcript = reduceStatusEvents(emptyTranscript(), events);
  return transcript.order
    .filter((item) => item.kind === 'call')
    .map((item) => {
      const call = transcript.calls[item.id]!;
      return `${call.name} ${call.echo?.kind ?? '-'} ${call.state}`;
    });
}

// Each test chains acpx, which starts aether acp, which starts the model: three Node starts.
describe('aether acp driven by acpx', { timeout: 60_000 }, () => {
  it('runs the demo turn — list, write with permission, read, patch — with every frame schema-valid', async () => {
    const run = await acpx(['--approve-all', '--format', 'json', 'exec', 'Show me the demo']).done;
    expect(run.code, run.stderr).toBe(0);
    const frames = acpxFrames(run.stdout);
    expect(conversationProblems(frames)).toEqual([]);

    const calls = updates(frames).filter((update) => update.sessionUpdate === 'tool_call');
    expect(calls.map((call) => [call.title, call.kind])).toEqual([
      ['List the workspace', 'read'],
      ['Create AETHER_DEMO.md', 'edit'],
      ['Read AETHER_DEMO.md', 'read'],
      ['Patch AETHER_DEMO.md', 'edit'],
    ]);
    const finished = updates(frames).filter(
      (update): update is Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }> =>
        update.sessionUpdate === 'tool_call_update' && update.status !== 'in_progress',
    );
    expect(finished.map((update) => update.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // The write and the patch reach the client as diffs of the file, by its absolute path.
    const note = path.join(workspace, 'AETHER_DEMO.md');
    expect(finished[1]!.content).toEqual([expect.objectContaining({ type: 'diff', path: note, oldText: null })]);
    expect(finished[3]!.content).toEqual([
      expect.objectContaining({
        type: 'diff',
        path: note,
        oldText: expect.stringContaining('Status: drafted by the demo model.'),
        newText: expect.stringContaining('Status: patched by the demo model.'),
      }),
    ]);
    // acpx serves its file system (`fs` at initialize): the write, the read and the patch go through it.
    const fsRequests = frames.flatMap(({ from, frame }) =>
      from === 'agent' && typeof frame.method === 'string' && frame.method.startsWith('fs/') ? [frame.method] : [],
    );
    expect(fsRequests).toEqual([
      'fs/read_text_file',
      'fs/write_text_file',
      'fs/read_text_file',
      'fs/read_text_file',
      'fs/write_text_file',
    ]);
    // Both changes were asked about first (the default mode asks before a write), with the diff.
    const asked = frames.filter(({ frame }) => frame.method === 'session/request_permission');
    expect(asked.map(({ frame }) => (frame.params as acp.RequestPermissionRequest).toolCall.title)).toEqual([
      'Create AETHER_DEMO.md',
      'Patch AETHER_DEMO.md',
    ]);
    expect((asked[0]!.frame.params as acp.RequestPermissionRequest).toolCall.content).toEqual([
      expect.objectContaining({ type: 'diff', path: note, oldText: null }),
    ]);
    const text = updates(frames)
      .map((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '',
      )
      .join('');
    expect(text).toContain('Patched: AETHER_DEMO.md now says it was patched.');
    expect(frames.at(-1)!.frame).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      result: { stopReason: 'end_turn' },
    });
    expect(await readFile(note, 'utf8')).toContain('Status: patched by the demo model.');
  });

  it('leaves a session the panel draws with the same cards as one made by aether run', async () => {
    // The demo's steps at full speed, for both hosts.
    const demo = await fastDemoModel();
    onTestFinished(() => demo.close());
    const run = await acpx(['--approve-all', '--format', 'quiet', 'exec', 'Show me the demo'], { demo }).done;
    expect(run.code, run.stderr).toBe(0);
    const overAcp = await onlySession();

    const other = path.join(root, 'other-ws');
    const otherSessions = path.join(root, 'other-sessions');
    await import('node:fs/promises').then(({ mkdir, writeFile }) =>
      mkdir(other).then(() => writeFile(path.join(other, 'notes.txt'), 'kept as it is\n')),
    );
    const ran = await aether([
      'run',
      '--workspace',
      other,
      '--sessions',
      otherSessions,
      '--model',
      'demo',
      '--allow',
      'write',
      'Show me the demo',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    const file = (await readdir(otherSessions)).find((name) => name.endsWith('.jsonl'))!;
    const overRun = (await readSessionFile(path.join(otherSessions, file))).events;

    expect(cards(overAcp)).toEqual([
      'list_dir text done',
      'write_file write done',
      'read_file read-file done',
      'patch_file patch done',
    ]);
    expect(cards(overAcp)).toEqual(cards(overRun));
    // What differs is only how the writes were allowed: asked over ACP and answered by the client.
    const transcript = reduceStatusEvents(emptyTranscript(), overAcp);
    const approvals = Object.values(transcript.calls).flatMap((call) =>
      call.approvals.map((approval) => `${call.name} ${approval.answer}`),
    );
    expect(approvals).toEqual(['write_file once', 'patch_file once']);
  });

  it('cancels a running turn: session/cancel, the prompt answers cancelled, the session keeps the stopped turn', async () => {
    const made = await acpx(['--ttl', '1', 'sessions', 'new']).done;
    expect(made.code, made.stderr).toBe(0);
    // Without --approve-all acpx turns the write down; the turn is cancelled once the demo speaks.
    const prompt = acpx(['--ttl', '1', '--format', 'json', 'prompt', 'Show me the demo'], {
      waitFor: '"agent_message_chunk"',
    });
    await prompt.started;
    const cancel = await acpx(['--ttl', '1', 'cancel']).done;
    expect(cancel.code, cancel.stderr).toBe(0);
    const run = await prompt.done;
    const frames = acpxFrames(run.stdout);
    expect(conversationProblems(frames)).toEqual([]);
    expect(frames.some(({ from, frame }) => from === 'client' && frame.method === 'session/cancel')).toBe(true);
    expect(frames.at(-1)!.frame).toMatchObject({ result: { stopReason: 'cancelled' } });
    const events = await onlySession();
    expect(events.at(-1)).toMatchObject({ type: 'turn_failed', aborted: true });
  });

  it("runs the model's command in acpx's own terminal, which acpx offers, and gives the model its result", async () => {
    const model = await startFixtureServer({
      script: {
        steps: [
          { tool_calls: [{ id: 'run-1', name: 'exec', args: { command: 'echo from-the-terminal; exit 2' } }] },
          { text: ['It exited with 2.'] },
        ],
      },
    });
    onTestFinished(() => model.close());
    const run = await acpx(['--approve-all', '--format', 'json', 'exec', 'Run it'], {
      demo: { model: `compat:${model.baseURL}#fixture`, env: {} },
    }).done;
    expect(run.code, run.stderr).toBe(0);
    const frames = acpxFrames(run.stdout);
    expect(conversationProblems(frames)).toEqual([]);
    const terminalRequests = frames.flatMap(({ from, frame }) =>
      from === 'agent' && typeof frame.method === 'string' && frame.method.startsWith('terminal/')
        ? [frame.method]
        : [],
    );
    expect(terminalRequests).toEqual([
      'terminal/create',
      'terminal/wait_for_exit',
      'terminal/output',
      'terminal/release',
    ]);
    const result = JSON.stringify(model.requests[1]?.body);
    expect(result).toContain('Exit code 2');
    expect(result).toContain('from-the-terminal');
    const shown = updates(frames).some(
      (update) =>
        update.sessionUpdate === 'tool_call_update' &&
        update.toolCallId === 'run-1' &&
        update.content?.some((item) => item.type === 'terminal'),
    );
    expect(shown).toBe(true);
  });
});
