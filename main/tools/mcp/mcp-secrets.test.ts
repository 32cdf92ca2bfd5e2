import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Result } from '../../../protocol/api.ts';
import { remoteInHome, type RemoteEverything } from '../../../test/mcp-remote-server.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { serverApprovalRequest } from './mcp-approvals.ts';
import { loadMcpConfig } from './mcp-config.ts';
import { applyMcpChange, mcpScreen } from './mcp-screen.ts';
import {
  EnvSecretStore,
  missingSecretsMessage,
  redactSecrets,
  resolveSecrets,
  type McpSecretStore,
} from './mcp-secrets.ts';
import { McpServers } from './mcp-servers.ts';

// Secrets that mcp.json names (`${secret:NAME}`) instead of holding: filled in when a server
// connects, a missing one failing the server with what to set, and the value never reaching the
// screen, the messages or the files the app writes.

/** The desktop app's store without the keychain: what the screen sets, kept in memory. */
class MemorySecretStore implements McpSecretStore {
  readonly storable = true;
  readonly values = new Map<string, string>();

  async get(name: string): Promise<string | undefined> {
    return this.values.get(name);
  }

  async from(name: string): Promise<'app' | null> {
    return this.values.has(name) ? 'app' : null;
  }

  async set(name: string, value: string | null): Promise<Result<void>> {
    if (value === null) this.values.delete(name);
    else this.values.set(name, value);
    return { ok: true, value: undefined };
  }
}

const TOKEN = 'tok-7f3a9c41e2b8d5';

describe('secret references', () => {
  it('fills each ${secret:NAME} of a value from the store, inside other text too', async () => {
    const store = new EnvSecretStore({ API_TOKEN: TOKEN, TEAM: 'core' });
    const resolved = await resolveSecrets(
      { Authorization: 'Bearer ${secret:API_TOKEN}', 'X-Team': '${secret:TEAM}/${secret:TEAM}', Plain: 'as is' },
      store,
    );
    expect(resolved).toEqual({
      ok: true,
      entries: { Authorization: `Bearer ${TOKEN}`, 'X-Team': 'core/core', Plain: 'as is' },
      values: [TOKEN, 'core'],
    });
  });

  it('names every missing secret and where to set it, for the desktop app and for the environment', async () => {
    const entries = { Authorization: 'Bearer ${secret:API_TOKEN}', 'X-Org': '${secret:ORG_ID}' };
    const env = new EnvSecretStore({});
    const resolved = await resolveSecrets(entries, env);
    expect(resolved).toEqual({ ok: false, missing: ['API_TOKEN', 'ORG_ID'], invalid: [] });
    if (resolved.ok) return;
    expect(missingSecretsMessage('remote', '/home/me/mcp.json', resolved, env)).toBe(
      'The MCP server "remote" needs the secrets API_TOKEN, ORG_ID, named in /home/me/mcp.json, and none is set. Set the environment variables API_TOKEN, ORG_ID where the panel or command runs, then start it again.',
    );
    expect(missingSecretsMessage('remote', '/home/me/mcp.json', resolved, new MemorySecretStore())).toContain(
      'Set them on the MCP servers screen (Settings)',
    );
  });

  it('refuses a secret of more than one line, which would break the header', async () => {
    const resolved = await resolveSecrets(
      { Authorization: '${secret:T}' },
      new EnvSecretStore({ T: 'a\nInjected: b' }),
    );
    expect(resolved).toEqual({ ok: false, missing: [], invalid: ['T'] });
  });

  it('hides secret values in a message', () => {
    expect(redactSecrets(`bad header value "Bearer ${TOKEN}"`, [TOKEN])).toBe('bad header value "Bearer [secret]"');
  });

  it('reports a server whose reference is not a secret name as a configuration problem', async () => {
    const { root, workspace } = await makeTempWorkspace('aether-mcp-secret-config-');
    try {
      await writeFile(
        path.join(root, 'mcp.json'),
        JSON.stringify({
          mcpServers: { remote: { url: 'https://example.com/mcp', headers: { Authorization: '${secret:my-token}' } } },
        }),
      );
      const config = await loadMcpConfig(root, workspace);
      expect(config.servers).toEqual([]);
      expect(config.problems[0]).toContain('names the secret "my-token"');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('names the secrets a workspace server would be given in the question that approves it', async () => {
    const { root, workspace } = await makeTempWorkspace('aether-mcp-secret-approval-');
    try {
      await mkdir(path.join(workspace, '.aethercodex'));
      await writeFile(
        path.join(workspace, '.aethercodex', 'mcp.json'),
        JSON.stringify({
          mcpServers: { hosted: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:GH}' } } },
        }),
      );
      const [server] = (await loadMcpConfig(root, workspace)).servers;
      expect(serverApprovalRequest(server!).detail).toContain('It is given your secret GH.');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('a remote server whose header names a secret', () => {
  let root: string;
  let workspace: string;
  let sessionDir: string;
  let home: string;
  let remote: RemoteEverything;
  let servers: McpServers | null = null;

  beforeEach(async () => {
    ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-mcp-secret-'));
    home = path.join(root, 'home');
    remote = await remoteInHome(home, TOKEN, 'HOSTED_TOKEN');
  });

  afterEach(async () => {
    await servers?.close();
    servers = null;
    await remote.close();
    await rm(root, { recursive: true, force: true });
  });

  it('fails, saying which secret to set, until the screen sets it; then connects with it', async () => {
    const store = new MemorySecretStore();
    servers = new McpServers({ home, workspace, secrets: store });
    await servers.start();
    const [failed] = (await mcpScreen(servers, home, workspace)).servers;
    expect(failed).toMatchObject({ status: 'failed', secrets: [{ name: 'HOSTED_TOKEN', set: false, from: null }] });
    expect(failed?.failure).toContain('needs the secret HOSTED_TOKEN');
    expect(failed?.failure).toContain('Set it on the MCP servers screen');
    // Never asked without it: the server saw no request at all.
    expect(remote.refused).toEqual([]);

    await applyMcpChange(servers, { action: 'secret', name: 'hosted', secret: 'HOSTED_TOKEN', value: TOKEN });
    const screen = await mcpScreen(servers, home, workspace);
    expect(screen.servers[0]).toMatchObject({
      status: 'ready',
      secrets: [{ name: 'HOSTED_TOKEN', set: true, from: 'app' }],
    });
    expect(JSON.stringify(screen)).not.toContain(TOKEN);

    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
    const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate });
    registry.register(...servers.tools());
    const outcome = await registry.call({ callId: 's1', name: 'mcp__hosted__get-sum', args: { a: 40, b: 2 } });
    expect(outcome.content).toContain('42');

    await applyMcpChange(servers, { action: 'secret', name: 'hosted', secret: 'HOSTED_TOKEN', value: null });
    expect(store.values.has('HOSTED_TOKEN')).toBe(false);
    expect((await mcpScreen(servers, home, workspace)).servers[0]).toMatchObject({
      status: 'failed',
      secrets: [{ name: 'HOSTED_TOKEN', set: false }],
    });
    // Nothing the app wrote holds the value: mcp.json, preferences, approvals, spills.
    expect(await filesContaining(root, TOKEN)).toEqual([]);
  }, 30_000);

  it('refuses a secret the server does not name, and one the environment-only store cannot keep', async () => {
    servers = new McpServers({ home, workspace, secrets: new EnvSecretStore({}) });
    await expect(
      applyMcpChange(servers, { action: 'secret', name: 'hosted', secret: 'OTHER', value: 'x' }),
    ).rejects.toThrow('names no secret OTHER');
    await expect(
      applyMcpChange(servers, { action: 'secret', name: 'hosted', secret: 'HOSTED_TOKEN', value: TOKEN }),
    ).rejects.toThrow('Set the environment variable HOSTED_TOKEN');
  });

  it('connects with the environment variable of the same name where nothing is stored', async () => {
    servers = new McpServers({ home, workspace, secrets: new EnvSecretStore({ HOSTED_TOKEN: TOKEN }) });
    await servers.start();
    expect(servers.states()[0]).toMatchObject({ status: 'ready' });
    expect((await mcpScreen(servers, home, workspace)).servers[0]?.secrets).toEqual([
      { name: 'HOSTED_TOKEN', set: true, from: 'environment' },
    ]);
  }, 30_000);
});

/** Files under a folder whose bytes contain the text. */
async function filesContaining(folder: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(text)) found.push(file);
  }
  return found;
}
