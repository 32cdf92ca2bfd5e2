import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { EVERYTHING } from './mcp-servers.ts';

// A remote MCP server for tests: server-everything over streamable HTTP on a free port, behind a
// proxy that lets through only requests carrying `Authorization: Bearer <token>` (as a hosted
// server behind a token would), so a test sees whether the header's secret arrived.

export interface RemoteEverything {
  /** The proxy's MCP endpoint. */
  url: string;
  /** The Authorization headers of the requests refused. */
  refused: string[];
  close(): Promise<void>;
}

export async function startRemoteEverything(token: string): Promise<RemoteEverything> {
  const upstream = await startEverything();
  const refused: string[] = [];
  const proxy = http.createServer((request, response) => {
    const given = request.headers.authorization ?? '';
    if (given !== `Bearer ${token}`) {
      refused.push(given);
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' });
      response.end('A bearer token is needed.');
      return;
    }
    const forward = http.request(
      { host: '127.0.0.1', port: upstream.port, path: request.url, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    refused,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      upstream.child.kill();
    },
  };
}

/**
 * The remote server behind `token`, as the server "hosted" of `home`/mcp.json (the folder is made),
 * whose Authorization header names the secret `secret` instead of holding the token.
 */
export async function remoteInHome(home: string, token: string, secret: string): Promise<RemoteEverything> {
  await mkdir(home, { recursive: true });
  const remote = await startRemoteEverything(token);
  const headers = { Authorization: `Bearer \${secret:${secret}}` };
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { hosted: { url: remote.url, headers } } }),
  );
  return remote;
}

/** Starts server-everything over one transport on a free port and waits until it says it listens. */
export async function startEverything(
  transport: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<{ port: number; child: ChildProcess }> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(process.execPath, [EVERYTHING, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port|running on port/i.test(said)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
  return { port, child };
}
