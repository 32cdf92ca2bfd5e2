import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { startFixtureServer } from '../model/fixture-server.ts';
import { startAcpAgent, updatesOf, type AcpAgentProcess } from '../../test/acp-agent-process.ts';
import { conversationProblems } from '../../test/acp-frames.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { pageOf } from '../agent/editor-files.ts';

// A client that declares `fs.readTextFile` and `fs.writeTextFile`, over real stdio with the SDK's
// own client: the model reads the editor's buffer (unsaved changes and all), a write and a patch go
// to the editor and not to disk, and a path outside the workspace is refused before the client is asked.

const temp = useTempWorkspace('aether-acp-files-');
const running: AcpAgentProcess[] = [];

afterEach(async () => {
  for (const agent of running.splice(0)) {
    agent.child.stdin?.end();
    await agent.exited;
  }
});

const BUFFER = 'first line, unsaved in the editor\nsecond line\n';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `aether acp` on the fixture model, with an editor that holds `buffers` (absolute path → text). */
async function startWithEditor(
  steps: FixtureScriptInput['steps'],
  buffers: Map<string, string>,
  fs: acp.FileSystemCapabilities = { readTextFile: true, writeTextFile: true },
) {
  const model = await startFixtureServer({ script: { steps } });
  onTestFinished(() => model.close());
  const agent = startAcpAgent(['--model', `compat:${model.baseURL}#fixture`, '--sessions', temp.sessionsRoot], {
    AETHERCODEX_HOME: path.join(temp.root, 'home'),
  });
  running.push(agent);
  const asked: string[] = [];
  const client = acp
    .client({ name: 'editor' })
    .onRequest('fs/read_text_file', ({ params }) => {
      asked.push(`read ${params.path}`);
      const text = buffers.get(params.path);
      if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content: text };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      asked.push(`write ${params.path}`);
      if (params.path.endsWith('.lock')) throw acp.RequestError.invalidRequest(undefined, 'the buffer is read-only');
      buffers.set(params.path, params.content);
      return {};
    })
    .onRequest('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }))
    .onNotification('session/update', () => undefined)
    .connect(agent.stream).agent;
  await client.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs },
  });
  const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
  return { agent, client, model, asked, sessionId };
}

/** What the model was sent back for its tool calls, as text. */
function toolResults(model: { requests: { body: unknown }[] }): string {
  return JSON.stringify(model.requests.at(-1)?.body);
}

describe("the ACP client's files", () => {
  it("reads the editor's unsaved buffer and writes through the editor, leaving the disk alone", async () => {
    const file = path.join(temp.workspace, 'notes.txt');
    await writeFile(file, 'what the disk holds\n');
    const buffers = new Map([[file, BUFFER]]);
    const { agent, client, model, asked, sessionId } = await startWithEditor(
      [
        { tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
        {
          tool_calls: [
            {
              name: 'write_file',
              args: { path: 'notes.txt', content: 'rewritten\n', expected_sha256: sha256(BUFFER) },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: 'patch_file',
              args: { path: 'notes.txt', edits: [{ old_text: 'rewritten', new_text: 'patched' }] },
            },
          ],
        },
        {
          tool_calls: [
            { name: 'patch_file', args: { path: 'notes.txt', edits: [{ old_text: 'gone', new_text: 'x' }] } },
          ],
        },
        { text: ['Done.'] },
      ],
      buffers,
    );
    const done = await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Rewrite it' }] });
    expect(done.stopReason).toBe('end_turn');
    const sent = JSON.stringify(model.requests[1]?.body);
    expect(sent).toContain('1: first line, unsaved in the editor');
    expect(sent).not.toContain('what the disk holds');
    expect(JSON.stringify(model.requests[2]?.body)).toContain(
      `Overwrote notes.txt (10 bytes). sha256: ${sha256('rewritten\n')}`,
    );
    expect(JSON.stringify(model.requests[3]?.body)).toContain(`sha256: ${sha256('patched\n')}`);
    // A patch whose text is not in the buffer fails, and nothing is written.
    expect(toolResults(model)).toContain('Nothing was written.');
    expect(asked).toEqual([
      `read ${file}`,
      `read ${file}`,
      `write ${file}`,
      `read ${file}`,
      `write ${file}`,
      `read ${file}`,
    ]);
    expect(buffers.get(file)).toBe('patched\n');
    expect(await readFile(file, 'utf8')).toBe('what the disk holds\n');
    // The card's diff is the change to the buffer.
    const diff = updatesOf(agent.frames).flatMap((update) =>
      update.sessionUpdate === 'tool_call_update' && update.status === 'completed'
        ? (update.content ?? []).filter((item) => item.type === 'diff')
        : [],
    );
    expect(diff).toEqual([
      { type: 'diff', path: file, oldText: BUFFER, newText: 'rewritten\n' },
      { type: 'diff', path: file, oldText: 'rewritten\n', newText: 'patched\n' },
    ]);
    expect(conversationProblems(agent.frames)).toEqual([]);
  });

  it('refuses a path outside the workspace without asking the editor', async () => {
    const outside = path.join(temp.root, 'outside.txt');
    await writeFile(outside, 'secret\n');
    const buffers = new Map([[outside, 'secret\n']]);
    const { client, model, asked, sessionId } = await startWithEditor(
      [
        { tool_calls: [{ name: 'read_file', args: { path: outside } }] },
        { tool_calls: [{ name: 'write_file', args: { path: '../outside.txt', content: 'x' } }] },
        {
          tool_calls: [
            { name: 'patch_file', args: { path: '../outside.txt', edits: [{ old_text: 'secret', new_text: 'x' }] } },
          ],
        },
        { text: ['Refused.'] },
      ],
      buffers,
    );
    await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Look outside' }] });
    expect(asked).toEqual([]);
    expect(JSON.stringify(model.requests[1]?.body)).not.toContain('secret');
    expect(toolResults(model)).toMatch(/outside the workspace/);
    expect(buffers.get(outside)).toBe('secret\n');
    expect(await readFile(outside, 'utf8')).toBe('secret\n');
  });

  it('says so when the editor cannot read a file on disk or refuses a write, and nothing is written', async () => {
    const missing = path.join(temp.workspace, 'on-disk.txt');
    await writeFile(missing, 'only on disk\n');
    const locked = path.join(temp.workspace, 'pkg.lock');
    const buffers = new Map([[locked, 'v1\n']]);
    const { client, model, sessionId } = await startWithEditor(
      [
        { tool_calls: [{ name: 'read_file', args: { path: 'on-disk.txt' } }] },
        {
          tool_calls: [
            { name: 'write_file', args: { path: 'pkg.lock', content: 'v2\n', expected_sha256: sha256('v1\n') } },
          ],
        },
        { text: ['Both failed.'] },
      ],
      buffers,
    );
    await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Try' }] });
    expect(JSON.stringify(model.requests[1]?.body)).toContain('The editor could not read on-disk.txt');
    expect(toolResults(model)).toContain('The editor could not write pkg.lock');
    expect(toolResults(model)).toContain('Nothing was written.');
    expect(buffers.get(locked)).toBe('v1\n');
  });

  it('keeps to the disk for a client that reads files but does not write them', async () => {
    const file = path.join(temp.workspace, 'notes.txt');
    await writeFile(file, 'what the disk holds\n');
    const buffers = new Map([[file, BUFFER]]);
    const { client, model, asked, sessionId } = await startWithEditor(
      [{ tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, { text: ['Read.'] }],
      buffers,
      { readTextFile: true },
    );
    await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Read it' }] });
    expect(toolResults(model)).toContain('1: what the disk holds');
    expect(asked).toEqual([]);
  });

  it('pages a buffer as read_file pages a file', () => {
    const text = 'a\r\nb\nc';
    expect(pageOf(text, 'x.txt', 2, 10)).toEqual({
      path: 'x.txt',
      range: { start: 2, end: 3 },
      total_lines: 3,
      content: 'b\nc',
      sha256: sha256(text),
      truncated: false,
    });
    expect(() => pageOf(text, 'x.txt', 5, 10)).toThrow('offset 5 is past the end of x.txt, which has 3 lines.');
  });
});
