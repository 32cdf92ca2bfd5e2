import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// A real HTTPS server on loopback for web_fetch's tests. Its certificate (test/fixtures/tls, made
// once with openssl: self-signed, for localhost, 127.0.0.1 and ::1, valid a century) is trusted by
// handing it to the tool as its certificate authority, so the tests run the tool's real path —
// https only, certificate checked — without a switch that lets plain http through.

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'tls');
/** The server's certificate, which is also the authority a test's tool trusts. */
export const TEST_CA = readFileSync(path.join(FIXTURES, 'localhost.crt'));
const KEY = readFileSync(path.join(FIXTURES, 'localhost.key'));

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestHttpsServer {
  port: number;
  /** `https://127.0.0.1:<port>`. */
  origin: string;
  /** The same server under another host name: `https://localhost:<port>`. */
  localhostOrigin: string;
  /** Paths asked for, in order. */
  requests: string[];
  /** Answers `path` (its pathname) with `handler`; others get 404. */
  route(pathname: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startHttpsServer(): Promise<TestHttpsServer> {
  const routes = new Map<string, Handler>();
  const requests: string[] = [];
  const server: Server = createServer({ cert: TEST_CA, key: KEY }, (request, response) => {
    const pathname = new URL(request.url ?? '/', 'https://test.invalid').pathname;
    requests.push(pathname);
    const handler = routes.get(pathname);
    if (handler) return handler(request, response);
    response.writeHead(404, { 'content-type': 'text/plain' }).end(`Nothing at ${pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `https://127.0.0.1:${port}`,
    localhostOrigin: `https://localhost:${port}`,
    requests,
    route: (pathname, handler) => void routes.set(pathname, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
