import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// A remote MCP server behind OAuth, with its authorization server, on one loopback port, for the
// sign-in's faults: the authorization page grants at once (or refuses, or sends back a state of
// its own, or no code), the token endpoint answers (or fails, or never answers), and the server
// may want a scope the authorization server never grants.

export interface OAuthServerOptions {
  authorize?: 'grant' | 'refuse' | 'wrong-state' | 'no-code';
  token?: 'grant' | 'fail' | 'hang';
  /** A scope tools/call needs that no token ever carries. */
  neverGranted?: string;
}

export interface OAuthServer {
  url: string;
  /** Tokens the token endpoint gave out. */
  issued: string[];
  /** How many times the authorization page was opened. */
  authorizations: number;
  close(): Promise<void>;
}

export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const issued: string[] = [];
  const state = { authorizations: 0 };
  let origin = '';
  const json = (
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: http.OutgoingHttpHeaders = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
      return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname === '/.well-known/oauth-authorization-server')
      return json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    if (url.pathname === '/register') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () =>
        json(response, 201, { ...JSON.parse(body), client_id: `client-${randomBytes(4).toString('hex')}` }),
      );
      return;
    }
    if (url.pathname === '/authorize') {
      state.authorizations += 1;
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      const how = options.authorize ?? 'grant';
      if (how === 'refuse') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The person said no');
      } else {
        if (how !== 'no-code') back.searchParams.set('code', `code-${randomBytes(4).toString('hex')}`);
        back.searchParams.set(
          'state',
          how === 'wrong-state' ? 'not-the-one-sent' : (url.searchParams.get('state') ?? ''),
        );
      }
      response.writeHead(302, { location: back.href });
      response.end();
      return;
    }
    if (url.pathname === '/token') {
      request.resume();
      const how = options.token ?? 'grant';
      if (how === 'hang') return;
      if (how === 'fail')
        return json(response, 500, { error: 'server_error', error_description: 'The token store is down' });
      const token = `tok-${randomBytes(8).toString('hex')}`;
      issued.push(token);
      return json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/mcp') return mcp(request, response);
    response.writeHead(404);
    response.end();
  });

  const mcp = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
    if (!token || !issued.includes(token))
      return json(response, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString() || 'null');
    if (options.neverGranted && (body as { method?: string } | null)?.method === 'tools/call')
      return json(
        response,
        403,
        { error: 'insufficient_scope' },
        {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${options.neverGranted}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    const server = new McpServer({ name: 'oauth-test', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says who is signed in' }, () => ({
      content: [{ type: 'text', text: 'signed in' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    issued,
    get authorizations() {
      return state.authorizations;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
