import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE } from '../../../test/mcp-servers.ts';
import { isRunning, killStill, pidIn } from '../../../test/processes.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { CALL_MARKER_VAR, OWNER_MARKER_VAR, ownerMark } from '../exec/call-processes.ts';
import { McpServers } from './mcp-servers.ts';

// A stdio server's own children, real processes found by pid: the fixture server starts a sleep in
// its process group (--grandchild) and one in a session of its own (--daemon), as `npx` starts the
// server and servers start helpers.

let root: string;
let workspace: string;
let home: string;
let servers: McpServers | null = null;
const started: number[] = [];

beforeEach(async () => {
  ({ root, workspace } = await makeTempWorkspace('aether-mcp-group-'));
  home = path.join(root, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await servers?.close();
  servers = null;
  killStill(started);
  await rm(root, { recursive: true, force: true });
});

/** Starts the fixture server with both sleepers; resolves with their pids once it is ready. */
async function fixtureWithChildren(): Promise<{ grandchild: number; daemon: number }> {
  const grandchildFile = path.join(root, 'grandchild.pid');
  const daemonFile = path.join(root, 'daemon.pid');
  const args = [FIXTURE, '--grandchild', grandchildFile, '--daemon', daemonFile];
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args } } }),
  );
  servers = new McpServers({ home, workspace });
  await servers.start();
  expect(servers.states()[0]).toMatchObject({ status: 'ready' });
  const pids = { grandchild: await pidIn(grandchildFile), daemon: await pidIn(daemonFile) };
  started.push(pids.grandchild, pids.daemon);
  return pids;
}

describe('a stdio MCP server', () => {
  it('is ended with everything it started when the connection closes, a child in a session of its own included', async () => {
    const { grandchild, daemon } = await fixtureWithChildren();
    expect(isRunning(grandchild)).toBe(true);
    expect(isRunning(daemon)).toBe(true);

    await servers!.close();

    expect(isRunning(grandchild)).toBe(false);
    expect(isRunning(daemon)).toBe(false);
  }, 30_000);

  it('that exits by itself has what it started ended too', async () => {
    const { grandchild, daemon } = await fixtureWithChildren();

    const call = servers!.call('fixture', 'exits', {}, { signal: new AbortController().signal, onprogress: () => {} });
    await expect(call).rejects.toThrow(/stopped/);

    // The server's exit is noticed first; its leftovers are ended right after.
    await expect.poll(() => isRunning(grandchild) || isRunning(daemon), { timeout: 10_000 }).toBe(false);
  }, 30_000);

  it.runIf(process.platform === 'linux')(
    'runs marked as the app’s, as exec commands are',
    async () => {
      const { grandchild } = await fixtureWithChildren();
      const environ = (await readFile(`/proc/${grandchild}/environ`)).toString().split('\0');
      expect(environ).toContain(`${OWNER_MARKER_VAR}=${ownerMark()}`);
      expect(environ.some((entry) => entry.startsWith(`${CALL_MARKER_VAR}=`))).toBe(true);
    },
    30_000,
  );
});
