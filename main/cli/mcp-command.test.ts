import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aether as runAether, type Ran } from '../../test/aether-cli.ts';
import { EVERYTHING, FIXTURE } from '../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { readSessionFile } from '../session/replay.ts';

// `aether mcp list|approve`, `aether tool mcp__…` and `aether run` with MCP servers, as a person runs
// them: child processes, $AETHERCODEX_HOME holding mcp.json, server-everything over stdio.

let root: string;
let workspace: string;
let sessions: string;
let home: string;
let model: FixtureServer | undefined;

beforeEach(async () => {
  ({ root, workspace, sessionDir: sessions } = await makeTempWorkspace('aether-cli-mcp-'));
  home = path.join(root, 'home');
  await mkdir(home);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
});

afterEach(async () => {
  await model?.close();
  model = undefined;
  await rm(root, { recursive: true, force: true });
});

function aether(args: string[]): Promise<Ran> {
  return runAether(args, { AETHERCODEX_HOME: home });
}

describe('aether and MCP servers', () => {
  it('aether mcp list prints each server with its status and tools; a workspace server waits for aether mcp approve', async () => {
    await mkdir(path.join(workspace, '.aethercodex'));
    await writeFile(
      path.join(workspace, '.aethercodex', 'mcp.json'),
      JSON.stringify({ mcpServers: { local: { command: process.execPath, args: [EVERYTHING] } } }),
    );
    const before = await aether(['mcp', 'list', '--workspace', workspace]);
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(/^everything \(user\): ready\n {2}tools: .*get-sum/m);
    expect(before.stdout).toMatch(/^local \(workspace\): unapproved\n {2}tools: \(none\)/m);
    expect(before.stderr).toContain('aether mcp approve local');

    const approved = await aether(['mcp', 'approve', 'local', '--workspace', workspace]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`${process.execPath} ${EVERYTHING}`);
    const after = await aether(['mcp', 'list', '--workspace', workspace]);
    expect(after.stdout).toMatch(/^local \(workspace\): ready\n {2}tools: .*get-sum/m);
  }, 60_000);

  it('aether tool calls one MCP tool through the pipeline and prints both routes', async () => {
    const ran = await aether(['tool', 'mcp__everything__get-sum', '{"a":20,"b":22}', '--workspace', workspace]);
    expect(ran.code).toBe(0);
    const printed = JSON.parse(ran.stdout) as { model: string; echo: { is_error: boolean } };
    expect(printed.model).toContain('42');
    expect(printed.echo.is_error).toBe(false);
  }, 30_000);

  it('aether run gives the model the MCP tools and runs its call through the agent loop', async () => {
    model = await startFixtureServer({
      script: {
        steps: [
          { tool_calls: [{ id: 'm1', name: 'mcp__everything__get-sum', args: { a: 1, b: 2 } }] },
          { text: ['The sum is 3.'] },
        ],
      },
    });
    const ran = await aether([
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      `compat:${model.baseURL}#fixture`,
      'Add 1 and 2',
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('The sum is 3.');
    const file = /Session: (.+\.jsonl)/.exec(ran.stdout)?.[1];
    const replay = await readSessionFile(file!);
    const completed = replay.events.find((event) => event.type === 'tool_completed');
    expect(completed).toMatchObject({ name: 'mcp__everything__get-sum', is_error: false });
    const sentTools = JSON.stringify(model.requests[0]);
    expect(sentTools).toContain('mcp__everything__get-sum');
  }, 60_000);

  it('aether run tells the model a tool a server added mid-turn (tools/list_changed) at its next step', async () => {
    await writeFile(
      path.join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
    );
    model = await startFixtureServer({
      script: {
        steps: [
          { tool_calls: [{ id: 'm1', name: 'mcp__fixture__adds-a-tool', args: {} }] },
          { tool_calls: [{ id: 'm2', name: 'mcp__fixture__added', args: {} }] },
          { text: ['Both ran.'] },
        ],
      },
    });
    const ran = await aether([
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      `compat:${model.baseURL}#fixture`,
      '--allow-rule',
      'exec(mcp__fixture__*)',
      'Add a tool, then call it',
    ]);
    expect(ran.code).toBe(0);
    expect(JSON.stringify(model.requests[0])).not.toContain('mcp__fixture__added');
    expect(JSON.stringify(model.requests[1])).toContain('mcp__fixture__added');
    const file = /Session: (.+\.jsonl)/.exec(ran.stdout)?.[1];
    const completed = (await readSessionFile(file!)).events.filter((event) => event.type === 'tool_completed');
    expect(completed.map((event) => [event.name, event.is_error])).toEqual([
      ['mcp__fixture__adds-a-tool', false],
      ['mcp__fixture__added', false],
    ]);
  }, 60_000);
});
