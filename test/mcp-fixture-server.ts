import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// A stdio MCP server that misbehaves on request, for the fault tests: it never answers, counts with
// progress until cancelled, floods progress, exits in the middle of a call, returns 50 MB, or (with
// --lying) breaks its own output schema, or asks the person for a release (a form, elicitation); it offers a prompt and a resource too. Every request and every cancellation it receives is appended to
// $MCP_FIXTURE_LOG, so tests can assert from its side. With --grandchild FILE it starts a long sleep
// in its own process group, with --daemon FILE one in a session of its own, each writing its pid to
// FILE: what a server starts, which must not outlive it.

const log = (line: string): void => {
  const file = process.env['MCP_FIXTURE_LOG'];
  if (file) appendFileSync(file, `${line}\n`);
};

/** Starts `sleep 1000` (in a new session when `session`), writes its pid to the file after `flag`. */
function startSleeper(flag: string, session: boolean): void {
  const at = process.argv.indexOf(flag);
  const file = at >= 0 ? process.argv[at + 1] : undefined;
  if (!file) return;
  const sleeper = spawn('sleep', ['1000'], { detached: session, stdio: 'ignore' });
  // The server still exits when its stdin closes, as it would without the sleeper.
  sleeper.unref();
  writeFileSync(file, String(sleeper.pid));
}
startSleeper('--grandchild', false);
startSleeper('--daemon', true);

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool('never-answers', { description: 'Waits forever.', inputSchema: {} }, async (_args, extra) => {
  log(`called never-answers ${String(extra.requestId)}`);
  await new Promise(() => undefined);
  return { content: [] };
});

server.registerTool('exits', { description: 'Exits mid-call.', inputSchema: {} }, async () => {
  log('called exits');
  process.stderr.write('fixture: giving up on purpose\n');
  setTimeout(() => process.exit(3), 20);
  await new Promise(() => undefined);
  return { content: [] };
});

server.registerTool(
  'big',
  { description: 'Returns many megabytes.', inputSchema: { mib: z.number().int().min(1).max(64) } },
  async ({ mib }) => {
    log('called big');
    const line = `${'x'.repeat(1023)}\n`;
    return { content: [{ type: 'text', text: line.repeat(mib * 1024) }] };
  },
);

server.registerTool('adds-a-tool', { description: 'Adds the tool "added".', inputSchema: {} }, async () => {
  log('called adds-a-tool');
  // Registering after connect sends notifications/tools/list_changed.
  server.registerTool('added', { description: 'Added at run time.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'the added tool ran' }],
  }));
  return { content: [{ type: 'text', text: 'added' }] };
});

const cancelled = new Set<string>();

server.registerTool(
  'counts-until-stopped',
  { description: 'Reports progress every 200 ms until it is cancelled.', inputSchema: {} },
  async (_args, extra) => {
    const id = String(extra.requestId);
    log(`called counts-until-stopped ${id}`);
    const token = extra._meta?.progressToken;
    for (let step = 1; !cancelled.has(id); step += 1) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: 1000, message: `step ${step}` },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { content: [{ type: 'text', text: 'stopped' }] };
  },
);

server.registerTool(
  'floods-progress',
  {
    description: 'Sends `count` progress notifications at once, then answers.',
    inputSchema: { count: z.number().int().min(1).max(100_000) },
  },
  async ({ count }, extra) => {
    log('called floods-progress');
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      const sent: Promise<void>[] = [];
      for (let step = 1; step <= count; step += 1) {
        sent.push(
          extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: count, message: `step ${step}` },
          }),
        );
      }
      await Promise.all(sent);
    }
    return { content: [{ type: 'text', text: `sent ${count}` }] };
  },
);

server.registerTool(
  'asks-for-release',
  { description: 'Asks the person for the release to cut (a form), and says what came back.', inputSchema: {} },
  async () => {
    log('called asks-for-release');
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: 'Which release should be cut?',
      requestedSchema: {
        type: 'object',
        properties: {
          version: { type: 'string', title: 'Version', description: 'Like 2.4.0', minLength: 1, maxLength: 20 },
          count: { type: 'integer', title: 'Build count', minimum: 1, maximum: 10 },
          notify: { type: 'boolean', title: 'Tell the team', default: true },
          channel: { type: 'string', title: 'Channel', enum: ['stable', 'beta'], enumNames: ['Stable', 'Beta'] },
        },
        required: ['version', 'channel'],
      },
    });
    return { content: [{ type: 'text', text: `${answer.action} ${JSON.stringify(answer.content ?? {})}` }] };
  },
);

server.registerPrompt(
  'release-notes',
  {
    description: 'Asks for the release notes of a version',
    argsSchema: {
      version: z.string().describe('The version to write about'),
      tone: z.string().optional().describe('How they should sound'),
    },
  },
  ({ version, tone }) => ({
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Write the release notes for ${version}${tone ? ` in a ${tone} tone` : ''}.` },
      },
    ],
  }),
);

server.registerResource(
  'changelog',
  'fixture://notes/changelog.md',
  { title: 'Changelog', description: 'What changed in each release', mimeType: 'text/markdown' },
  (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Changelog\n\n- 2.4.0: forms in the panel\n' }],
  }),
);

server.server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
  cancelled.add(String(notification.params.requestId));
  log(`cancelled ${String(notification.params.requestId)}`);
});

if (process.argv.includes('--lying')) {
  // Bypasses the SDK's own checks: lists a tool whose output schema its result then breaks.
  const raw = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
  raw.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'lies',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
      },
    ],
  }));
  raw.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: '{"count":"many"}' }],
    structuredContent: { count: 'many' },
  }));
  await raw.connect(new StdioServerTransport());
} else if (process.argv.includes('--malformed')) {
  // Answers everything with a line that is not JSON-RPC.
  process.stdin.on('data', () => process.stdout.write('this is not json\n'));
} else {
  await server.connect(new StdioServerTransport());
}
