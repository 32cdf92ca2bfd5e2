import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../test/mcp-servers.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { PanelService } from './panel-service.ts';
import { SETTINGS_FILE, SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The panel's sessions get the MCP servers of mcp.json: a real session, the fixture model over HTTP
// calling one tool of server-everything over stdio, and what the model received read back.

let base: string;
let server: FixtureServer;
let service: PanelService | undefined;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-mcp-'));
  server = await startFixtureServer();
});

afterEach(async () => {
  await service?.close();
  service = undefined;
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe('MCP servers in the panel', () => {
  it('gives the panel’s session the tools of mcp.json and runs a call through them', async () => {
    const home = path.join(base, 'home');
    await mkdir(home);
    await writeFile(path.join(home, SETTINGS_FILE), JSON.stringify({ permission_mode: 'ask' }));
    await writeFile(
      path.join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
    );
    service = testPanelService({
      workspace: await realpath(await mkdtemp(path.join(base, 'ws-'))),
      sessionsRoot: path.join(base, 'sessions'),
      settings: new SettingsStore(home, { overrides: { model: `compat:${server.baseURL}#scripted` } }),
      mcpHome: home,
    });
    server.load({
      steps: [
        { tool_calls: [{ id: 'call_1', name: 'mcp__everything__get-sum', args: { a: 5, b: 6 } }] },
        { text: ['Eleven.'] },
      ],
    });
    await service.handlers['turn:send']({ text: 'Add 5 and 6' });
    await expect
      .poll(
        async () => {
          const fetched = await service!.handlers['tool:content']({ call_id: 'call_1' });
          return fetched.ok ? fetched.value.content : '';
        },
        { timeout: 20_000 },
      )
      .toContain('11');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('mcp__everything__get-sum');
  }, 40_000);
});
