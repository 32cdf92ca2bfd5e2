import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, DEFAULT_RULES, PermissionGate, RefuseApprover, type GateRules } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { applyMcpChange, mcpScreen } from './mcp-screen.ts';
import { McpServers } from './mcp-servers.ts';

// The MCP servers screen against the real server-everything over stdio: what it shows, and what
// its switches and allow / ask / deny do to the tools the model gets and to their calls.

let root: string;
let workspace: string;
let sessionDir: string;
let home: string;
const opened: McpServers[] = [];

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-mcp-screen-'));
  home = path.join(root, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
  await rm(root, { recursive: true, force: true });
});

async function configure(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
}

function servers(): McpServers {
  const made = new McpServers({ home, workspace });
  opened.push(made);
  return made;
}

/** A registry holding the servers' tools now, behind a gate that refuses whenever it would ask. */
function registryOf(mcp: McpServers, rules: GateRules, asked: string[] = []) {
  const gate = new PermissionGate(rules, new RefuseApprover((question) => (asked.push(question.name), 'no')));
  const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate, readableRoots: [] });
  registry.register(...mcp.tools());
  return registry;
}

describe('the MCP servers screen', () => {
  it('shows a configured server as stopped without starting it, and Start brings it up with its tools', async () => {
    await configure(path.join(home, 'mcp.json'));
    const mcp = servers();
    await mcp.readConfig();
    const before = await mcpScreen(mcp, home, workspace);
    expect(before.servers).toMatchObject([{ name: 'everything', origin: 'user', status: 'stopped', tools: [] }]);
    expect(before.servers[0]?.command).toContain(EVERYTHING);
    expect(before.files.user).toBe(path.join(home, 'mcp.json'));

    await applyMcpChange(mcp, { action: 'restart', name: 'everything' });
    const after = (await mcpScreen(mcp, home, workspace)).servers[0];
    expect(after?.status).toBe('ready');
    expect(after?.tools.find((tool) => tool.name === 'get-sum')).toMatchObject({
      full_name: 'mcp__everything__get-sum',
      enabled: true,
      policy: null,
    });
  });

  it('keeps a switched-off tool from the model and brings it back, remembered in the app home', async () => {
    await configure(path.join(home, 'mcp.json'));
    const mcp = servers();
    await mcp.start();
    await applyMcpChange(mcp, { action: 'tool', server: 'everything', tool: 'get-sum', enabled: false });
    expect(mcp.tools().map((tool) => tool.name)).not.toContain('mcp__everything__get-sum');
    expect(mcp.tools().map((tool) => tool.name)).toContain('mcp__everything__echo');

    const saved = JSON.parse(await readFile(path.join(home, 'mcp-preferences.json'), 'utf8'));
    expect(saved.tools.everything['get-sum']).toEqual({ enabled: false });
    const later = servers();
    await later.start();
    expect(later.tools().map((tool) => tool.name)).not.toContain('mcp__everything__get-sum');
    expect(
      (await mcpScreen(later, home, workspace)).servers[0]?.tools.find((tool) => tool.name === 'get-sum')?.enabled,
    ).toBe(false);

    await applyMcpChange(later, { action: 'tool', server: 'everything', tool: 'get-sum', enabled: true });
    expect(later.tools().map((tool) => tool.name)).toContain('mcp__everything__get-sum');
  });

  it('denies a tool set to Deny even where the mode allows everything, and runs one set to Allow without asking', async () => {
    await configure(path.join(home, 'mcp.json'));
    const mcp = servers();
    await mcp.start();
    await applyMcpChange(mcp, { action: 'tool', server: 'everything', tool: 'get-sum', policy: 'deny' });
    const denied = await registryOf(mcp, ALLOW_ALL).call({
      callId: 'c1',
      name: 'mcp__everything__get-sum',
      args: { a: 1, b: 2 },
    });
    expect(denied.isError).toBe(true);
    expect(denied.content).toContain('deny for mcp__everything__get-sum on the MCP servers screen');

    const asked: string[] = [];
    const call = { callId: 'c2', name: 'mcp__everything__toggle-simulated-logging', args: {} };
    expect((await registryOf(mcp, DEFAULT_RULES, asked).call(call)).isError).toBe(true);
    expect(asked).toEqual(['mcp__everything__toggle-simulated-logging']);
    await applyMcpChange(mcp, {
      action: 'tool',
      server: 'everything',
      tool: 'toggle-simulated-logging',
      policy: 'allow',
    });
    const allowed = await registryOf(mcp, DEFAULT_RULES, asked).call({ ...call, callId: 'c3' });
    expect(allowed.isError).toBe(false);
    expect(asked).toHaveLength(1);

    await applyMcpChange(mcp, { action: 'tool', server: 'everything', tool: 'get-sum', policy: null });
    const back = await registryOf(mcp, ALLOW_ALL).call({
      callId: 'c4',
      name: 'mcp__everything__get-sum',
      args: { a: 1, b: 2 },
    });
    expect(back.content).toContain('3');
  });

  it('stops a server switched off, says so, and starts it again when switched on', async () => {
    await configure(path.join(home, 'mcp.json'));
    const mcp = servers();
    await mcp.start();
    await applyMcpChange(mcp, { action: 'enable', name: 'everything', enabled: false });
    expect((await mcpScreen(mcp, home, workspace)).servers[0]?.status).toBe('disabled');
    expect(mcp.tools()).toEqual([]);
    await applyMcpChange(mcp, { action: 'enable', name: 'everything', enabled: true });
    expect((await mcpScreen(mcp, home, workspace)).servers[0]?.status).toBe('ready');
    expect(mcp.tools().length).toBeGreaterThan(0);
  });

  it('holds a workspace server until "Approve and start", naming its command, and starts it then', async () => {
    await configure(path.join(workspace, '.aethercodex', 'mcp.json'));
    const mcp = servers();
    await mcp.start();
    const waiting = (await mcpScreen(mcp, home, workspace)).servers[0];
    expect(waiting).toMatchObject({ name: 'everything', origin: 'workspace', status: 'unapproved' });
    expect(waiting?.command).toContain(EVERYTHING);
    expect(mcp.tools()).toEqual([]);

    await applyMcpChange(mcp, { action: 'approve', name: 'everything' });
    expect((await mcpScreen(mcp, home, workspace)).servers[0]?.status).toBe('ready');
    expect(mcp.tools().map((tool) => tool.name)).toContain('mcp__everything__echo');
  });

  it('refuses a change for a server nobody configured, saying where to look', async () => {
    const mcp = servers();
    await expect(applyMcpChange(mcp, { action: 'restart', name: 'ghost' })).rejects.toThrow(
      'No MCP server is named "ghost"',
    );
  });
});
