import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, DEFAULT_RULES, PermissionGate, type ApprovalQuestion } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { mcpTool } from './mcp-tool.ts';

// An MCP call's card is described by the server's and the tool's names; the approval question
// names them too, with the destructive hint and the arguments in full.

const temp = useTempWorkspace('aether-mcp-describe-');

const drop: Tool = {
  name: 'drop-table',
  inputSchema: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
  annotations: { destructiveHint: true },
};

function setup(rules = DEFAULT_RULES) {
  const asked: ApprovalQuestion[] = [];
  const sink = new StatusRecorder();
  const gate = new PermissionGate(rules, {
    ask: async (question) => {
      asked.push(question);
      return 'deny';
    },
  });
  const registry = new ToolRegistry({ workspace: temp.workspace, sessionDir: temp.sessionDir, sink, gate });
  registry.register(mcpTool('db', drop, { call: async () => ({ content: [{ type: 'text', text: 'dropped' }] }) }));
  return { registry, sink, asked };
}

describe('an MCP call described', () => {
  it('on its card by the server and the tool, and in its question with the hint and the arguments in full', async () => {
    const { registry, sink, asked } = setup();
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__db__drop-table', args: { table: 'users' } });
    expect(outcome).toMatchObject({ isError: true, content: 'Denied by the user: drop-table on the MCP server "db".' });
    expect(sink.ofType('tool_started')[0]?.description).toEqual({
      title: 'drop-table on the MCP server "db"',
      subtitle: 'db › drop-table',
    });
    expect(asked.map((question) => question.request.detail)).toEqual([
      'MCP server: db\nTool: drop-table (may change or delete data)\nArguments:\n{\n  "table": "users"\n}',
    ]);
  });

  it('admitted by the rules: nothing is asked and the call runs', async () => {
    const { registry, asked } = setup(ALLOW_ALL);
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__db__drop-table', args: { table: 'users' } });
    expect(outcome).toMatchObject({ isError: false, content: 'dropped' });
    expect(asked).toEqual([]);
  });
});
