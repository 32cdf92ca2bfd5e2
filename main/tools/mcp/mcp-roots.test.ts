import { afterEach, expect, it } from 'vitest';
import { EVERYTHING } from '../../../test/mcp-servers.ts';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { McpConnection } from './mcp-connection.ts';

// MCP roots: a server is told the workspace it works in. server-everything offers its
// get-roots-list tool only to a client that declares roots, and lists what the client answered.

const temp = useTempWorkspace('aether-mcp-roots-');
let connection: McpConnection | undefined;

afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

function everything(workspace?: string): McpConnection {
  return new McpConnection(
    {
      name: 'everything',
      origin: 'user',
      file: 'mcp.json',
      transport: { command: process.execPath, args: [EVERYTHING], env: {} },
      disabled: false,
    },
    workspace ? { workspace } : {},
  );
}

it('tells a server the workspace as its one root', async () => {
  connection = everything(temp.workspace);
  await connection.start();
  expect(connection.tools.map((tool) => tool.name)).toContain('get-roots-list');
  await expect
    .poll(async () => {
      const result = await connection!.callTool(
        'get-roots-list',
        {},
        {
          signal: AbortSignal.timeout(10_000),
          onprogress: () => undefined,
        },
      );
      return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    })
    .toContain(`file://${temp.workspace}`);
});

it('declares no roots without a workspace', async () => {
  connection = everything();
  await connection.start();
  expect(connection.tools.map((tool) => tool.name)).not.toContain('get-roots-list');
});
