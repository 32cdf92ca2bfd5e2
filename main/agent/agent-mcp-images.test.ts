import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../test/mcp-servers.ts';
import { modelFor } from '../../test/agent-kit.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { createModelAdapter } from '../model/index.ts';
import type { ModelAdapter } from '../model/types.ts';
import { forkSession } from '../session/fork.ts';
import { IMAGES_FOLDER } from '../session/session-images.ts';
import { sessionDirOf } from '../session/session-log.ts';
import { StatusRecorder } from '../status/sink.ts';
import { McpServers } from '../tools/mcp/mcp-servers.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';

// The image of a real MCP server's result (server-everything's get-tiny-image) goes to models that
// take images inside the request, is kept once in the session's folder by hash, and a resumed
// session sends the very same bytes; a compat model gets the text that names the image instead.

const dirs = useTempWorkspace('aether-mcp-images-');
const servers: FixtureServer[] = [];
const sessions: AgentSession[] = [];
let mcp: McpServers | null = null;

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const server of servers.splice(0)) await server.close();
  await mcp?.close();
  mcp = null;
});

const CALL: FixtureScriptInput = {
  steps: [
    { text: ['Looking.'], tool_calls: [{ id: 'img1', name: 'mcp__everything__get-tiny-image', args: {} }] },
    { text: ['A tiny image.'] },
  ],
};

async function fixture(script: FixtureScriptInput): Promise<FixtureServer> {
  const server = await startFixtureServer({ script });
  servers.push(server);
  return server;
}

async function everything(): Promise<McpServers> {
  const home = path.join(dirs.root, 'home');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  mcp = new McpServers({ home, workspace: dirs.workspace });
  await mcp.start();
  return mcp;
}

async function open(model: ModelAdapter, id?: string): Promise<AgentSession> {
  const options = {
    root: dirs.sessionsRoot,
    workspace: dirs.workspace,
    model,
    sink: new StatusRecorder(),
    tools: (mcp ?? (await everything())).tools(),
    rules: ALLOW_ALL,
  };
  const session = id ? await AgentSession.resume({ ...options, id }) : await AgentSession.start(options);
  sessions.push(session);
  return session;
}

/** The image server-everything returned, as the session's folder keeps it. */
async function keptImage(session: AgentSession): Promise<{ sha256: string; base64: string }> {
  const folder = path.join(sessionDirOf(dirs.sessionsRoot, session.id), IMAGES_FOLDER);
  const names = await readdir(folder);
  expect(names).toHaveLength(1);
  const data = await readFile(path.join(folder, names[0]!));
  expect(createHash('sha256').update(data).digest('hex')).toBe(names[0]);
  expect(data.subarray(1, 4).toString()).toBe('PNG');
  return { sha256: names[0]!, base64: data.toString('base64') };
}

/** The messages a request sent, without the cache breakpoints, which move forward as the conversation grows. */
const messagesOf = (server: FixtureServer, index: number) =>
  JSON.stringify((server.requests[index]?.body as { messages?: unknown }).messages, (key, value: unknown) =>
    key === 'cache_control' ? undefined : value,
  );

describe.each(['anthropic', 'openai'] as const)('an MCP result image to an %s model', (wire) => {
  it('goes with the tool result, is kept by hash, and is sent again byte for byte after a resume', async () => {
    const first = await fixture(CALL);
    const session = await open(modelFor(wire, first));
    session.send('Show me the tiny image.');
    await session.idle();
    const image = await keptImage(session);
    const sent = messagesOf(first, 1);
    expect(sent).toContain(image.base64);
    if (wire === 'anthropic') {
      // Inside the tool_result block, after the text that names it.
      expect(sent).toMatch(/"type":"tool_result"[^\]]*"content":\[\{"type":"text","text":"[^"]*\[image image\/png/);
      expect(sent).toContain(
        `"type":"image","source":{"type":"base64","media_type":"image/png","data":"${image.base64}"`,
      );
    } else {
      // The chat API takes no images in a tool message: a user message right after the results.
      const messages = JSON.parse(sent) as { role: string; content: unknown }[];
      expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
      expect(JSON.stringify(messages[3]!.content)).not.toContain(image.base64);
      expect(JSON.stringify(messages[4]!.content)).toContain(`data:image/png;base64,${image.base64}`);
      expect(JSON.stringify(messages[4]!.content)).toContain('mcp__everything__get-tiny-image (call img1)');
    }
    const id = session.id;
    await session.close();

    const second = await fixture({ steps: [{ text: ['Still tiny.'] }] });
    const again = await open(modelFor(wire, second), id);
    const turn = again.send('And now?');
    await again.idle();
    // What was sent before the resume is the start of what is sent after it, byte for byte.
    const before = sent.replace(/[\]}]+$/, '');
    expect(messagesOf(second, 0).startsWith(before)).toBe(true);
    expect(messagesOf(second, 0)).toContain('And now?');

    // A rewind to the second message keeps the image: the fork sends it too.
    if (!turn.ok) throw new Error(turn.error);
    const fork = await forkSession(dirs.sessionsRoot, id, { turnId: turn.value.turn_id });
    const third = await fixture({ steps: [{ text: ['Tiny again.'] }] });
    const forked = await open(modelFor(wire, third), fork.id);
    forked.send('Once more?');
    await forked.idle();
    expect(messagesOf(third, 0).startsWith(before)).toBe(true);
  });
});

describe('an MCP result image to a compat model', () => {
  it('stays the text that names it', async () => {
    const server = await fixture(CALL);
    const session = await open(createModelAdapter(`compat:${server.baseURL}#local-model`, { env: {} }));
    session.send('Show me the tiny image.');
    await session.idle();
    const image = await keptImage(session);
    const sent = messagesOf(server, 1);
    expect(sent).toMatch(/\[image image\/png, [\d.]+ (bytes|KiB)\]/);
    expect(sent).not.toContain(image.base64);
    expect(sent).not.toContain('image_url');
  });
});
