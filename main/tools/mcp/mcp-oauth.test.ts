import { afterEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from '../../../test/oauth-server.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { McpConnection } from './mcp-connection.ts';
import { McpServers } from './mcp-servers.ts';
import { followAuthorization, MemoryOAuthStore, oauthKey, OAuthSignIn } from './mcp-oauth.ts';

// A remote server's OAuth sign-in through the real client, against a real authorization server on
// loopback: one that grants, and each way a sign-in goes wrong — a refusal on the redirect, a state
// that does not match, a redirect without a code, a token endpoint that fails or never answers, a
// scope that is never granted. Each ends with a sentence saying so, and no token is kept.

let server: OAuthServer | undefined;
let connection: McpConnection | undefined;

afterEach(async () => {
  await connection?.close();
  await server?.close();
  connection = undefined;
  server = undefined;
});

async function connect(options: OAuthServerOptions, authRequestMs?: number) {
  server = await startOAuthServer(options);
  const store = new MemoryOAuthStore();
  const url = server.url;
  connection = new McpConnection(
    { name: 'guarded', origin: 'user', file: 'mcp.json', transport: { url, headers: {} }, disabled: false },
    {
      oauth: (serverUrl) => new OAuthSignIn(serverUrl, { store, open: followAuthorization, waitMs: 10_000 }),
      ...(authRequestMs ? { authRequestMs } : {}),
    },
  );
  const kept = async () => JSON.parse((await store.get(oauthKey(url))) ?? '{}') as { tokens?: unknown };
  return { connection, kept };
}

describe('MCP OAuth sign-in', () => {
  it('signs in, keeps the tokens in the store, and calls with them', async () => {
    const { connection, kept } = await connect({});
    await connection.start();
    expect(connection.tools.map((tool) => tool.name)).toEqual(['whoami']);
    const result = await connection.callTool(
      'whoami',
      {},
      { signal: AbortSignal.timeout(10_000), onprogress: () => undefined },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'signed in' }]);
    expect((await kept()).tokens).toMatchObject({ access_token: server!.issued[0] });
  });

  it('says the person refused on the authorization page, and keeps no token', async () => {
    const { connection, kept } = await connect({ authorize: 'refuse' });
    await expect(connection.start()).rejects.toThrow(
      'The authorization server refused the sign-in: The person said no.',
    );
    expect((await kept()).tokens).toBeUndefined();
    expect(server!.issued).toEqual([]);
  });

  it('does not trust a redirect whose state does not match', async () => {
    const { connection, kept } = await connect({ authorize: 'wrong-state' });
    await expect(connection.start()).rejects.toThrow('a state that does not match the one sent');
    expect((await kept()).tokens).toBeUndefined();
    expect(server!.issued).toEqual([]);
  });

  it('says a redirect without a code came back', async () => {
    const { connection } = await connect({ authorize: 'no-code' });
    await expect(connection.start()).rejects.toThrow('without an authorization code');
  });

  it('says the token endpoint failed, and keeps no token', async () => {
    const { connection, kept } = await connect({ token: 'fail' });
    await expect(connection.start()).rejects.toThrow(
      /Signing in to the MCP server "guarded" failed: .*No token was kept/,
    );
    expect((await kept()).tokens).toBeUndefined();
  });

  it('gives up on a token endpoint that never answers', async () => {
    const { connection, kept } = await connect({ token: 'hang' }, 500);
    await expect(connection.start()).rejects.toThrow(/did not answer within 0.5 s while signing in; no token was kept/);
    expect((await kept()).tokens).toBeUndefined();
  });

  it('stops asking for a scope the authorization server never grants, and forgets the tokens', async () => {
    const { connection, kept } = await connect({ neverGranted: 'admin:write' });
    await connection.start();
    await expect(
      connection.callTool('whoami', {}, { signal: AbortSignal.timeout(20_000), onprogress: () => undefined }),
    ).rejects.toThrow(
      'still refused after signing in again: it asks for access (a scope) its authorization server does not grant',
    );
    expect(server!.authorizations).toBeLessThanOrEqual(4);
    expect((await kept()).tokens).toBeUndefined();
  });
});

describe("a session's MCP servers", () => {
  it('sign in to a remote server of mcp.json that asks for OAuth, and offer its tools', async () => {
    server = await startOAuthServer({});
    const { root, workspace } = await makeTempWorkspace('aether-mcp-oauth-');
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { guarded: { url: server.url } } }));
    const opened: string[] = [];
    const servers = new McpServers({
      home,
      workspace,
      signIn: {
        open: async (page) => {
          opened.push(page.pathname);
          await followAuthorization(page);
        },
      },
    });
    try {
      await servers.start();
      expect(servers.states()).toMatchObject([{ name: 'guarded', status: 'ready', tools: ['whoami'] }]);
      expect(opened).toEqual(['/authorize']);
    } finally {
      await servers.close();
    }
  });

  it('refuse such a server without a way to sign in, saying it needs one', async () => {
    server = await startOAuthServer({});
    const { root, workspace } = await makeTempWorkspace('aether-mcp-oauth-');
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { guarded: { url: server.url } } }));
    const servers = new McpServers({ home, workspace });
    try {
      await servers.start();
      expect(servers.states()).toMatchObject([{ name: 'guarded', status: 'failed' }]);
      expect(servers.states()[0]!.failure).toContain('needs a sign-in (OAuth; it answered 401)');
    } finally {
      await servers.close();
    }
  });

  it('open no browser unless the person asked (the panel), sign in when asked, and forget it on sign-out', async () => {
    server = await startOAuthServer({});
    const { root, workspace } = await makeTempWorkspace('aether-mcp-oauth-');
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { guarded: { url: server.url } } }));
    const servers = new McpServers({
      home,
      workspace,
      signIn: { open: followAuthorization, onlyWhenAsked: true },
    });
    const guarded = () => servers.servers[0]!;
    try {
      await servers.start();
      expect(servers.states()[0]).toMatchObject({
        status: 'failed',
        failure:
          'The MCP server "guarded" needs a sign-in (OAuth). Press Sign in for it on the MCP servers screen (Settings).',
      });
      expect(server.authorizations).toBe(0);
      expect(await servers.signInState(guarded())).toEqual({ state: 'needed' });

      await servers.signInNow('guarded');
      await expect.poll(() => servers.states()[0]!.status).toBe('ready');
      expect(servers.states()[0]).toMatchObject({ failure: null, tools: ['whoami'] });
      expect(await servers.signInState(guarded())).toEqual({ state: 'signed_in' });

      await servers.signOut('guarded');
      expect(await servers.signInState(guarded())).toEqual({ state: 'needed' });
      expect(servers.states()[0]!.status).toBe('stopped');
      await servers.restartNow('guarded');
      expect(servers.states()[0]!.status).toBe('failed');
      expect(server.authorizations).toBe(1);
    } finally {
      await servers.close();
    }
  });

  it('say why a sign-in asked for from the panel failed, and keep no token', async () => {
    server = await startOAuthServer({ authorize: 'refuse' });
    const { root, workspace } = await makeTempWorkspace('aether-mcp-oauth-');
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { guarded: { url: server.url } } }));
    const servers = new McpServers({ home, workspace, signIn: { open: followAuthorization, onlyWhenAsked: true } });
    try {
      await servers.readConfig();
      await servers.signInNow('guarded');
      await expect.poll(() => servers.states()[0]!.status).toBe('failed');
      expect(servers.states()[0]!.failure).toContain(
        'The authorization server refused the sign-in: The person said no.',
      );
      expect(await servers.signInState(servers.servers[0]!)).toEqual({ state: 'needed' });
      await expect(servers.signInNow('nowhere')).rejects.toThrow('No MCP server is named "nowhere"');
    } finally {
      await servers.close();
    }
  });

  it('say so when the sign-in page cannot be opened, and keep no token', async () => {
    server = await startOAuthServer({});
    const { root, workspace } = await makeTempWorkspace('aether-mcp-oauth-');
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: { guarded: { url: server.url } } }));
    const open = async (): Promise<void> => {
      throw new Error('No browser is set up on this system.');
    };
    const servers = new McpServers({ home, workspace, signIn: { open, onlyWhenAsked: true } });
    try {
      await servers.readConfig();
      await servers.signInNow('guarded');
      await expect.poll(() => servers.states()[0]!.status).toBe('failed');
      expect(servers.states()[0]!.failure).toContain(
        'The sign-in page of the MCP server "guarded" could not be opened: No browser is set up on this system.',
      );
      expect(await servers.signInState(servers.servers[0]!)).toEqual({ state: 'needed' });
      expect(server.issued).toEqual([]);
    } finally {
      await servers.close();
    }
  });
});
