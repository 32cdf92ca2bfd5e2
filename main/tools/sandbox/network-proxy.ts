import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// The sandbox's only way out: an HTTP proxy on a Unix socket in a folder of its own, bound into
// the sandbox, that forwards plain requests and CONNECT tunnels to the hosts on the allow-list and
// answers 403 to the rest, remembering them so the command's result can say what it needed.
// Inside, a small bridge listens on the sandbox's own loopback (proxy-bridge.ts) and the
// command's HTTP_PROXY / HTTPS_PROXY name it.

export class SandboxProxy {
  readonly folder: string;
  readonly socketPath: string;
  /** Hosts (host:port) a request went to that the allow-list refused. */
  readonly refused = new Set<string>();
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(folder: string, allow: readonly string[]) {
    this.folder = folder;
    this.socketPath = path.join(folder, 'proxy.sock');
    this.server = http.createServer((request, response) => this.forward(request, response, allow));
    this.server.on('connect', (request: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
      this.tunnel(request, socket, head, allow),
    );
    this.server.on('connection', (socket: net.Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** `tcp`: on a loopback port instead (Seatbelt lets a sandbox reach one port, not bind a socket in). */
  static async start(allow: readonly string[], parent = os.tmpdir(), tcp = false): Promise<SandboxProxy> {
    const proxy = new SandboxProxy(await mkdtemp(path.join(parent, 'aether-proxy-')), allow);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      if (tcp) proxy.server.listen(0, '127.0.0.1', () => resolve());
      else proxy.server.listen(proxy.socketPath, () => resolve());
    });
    return proxy;
  }

  /** The loopback port, when it listens on one. */
  get port(): number | undefined {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.folder, { recursive: true, force: true });
  }

  private refuse(target: string, answer: (status: number, text: string) => void): void {
    this.refused.add(target);
    answer(403, `The sandbox's network allow-list does not include ${target}.\n`);
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse, allow: readonly string[]): void {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('The sandbox proxy takes absolute URLs only.\n');
      return;
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol !== 'http:' || !hostAllowed(host, port, allow))
      return this.refuse(`${url.hostname}:${port}`, (status, text) =>
        response.writeHead(status, { 'content-type': 'text/plain' }).end(text),
      );
    const upstream = http.request(
      { host, port, method: request.method, path: `${url.pathname}${url.search}`, headers: request.headers },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`The sandbox proxy could not reach ${url.host}: ${error.message}\n`);
    });
    request.pipe(upstream);
  }

  private tunnel(request: http.IncomingMessage, socket: net.Socket, head: Buffer, allow: readonly string[]): void {
    const target = request.url ?? '';
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    socket.on('error', () => socket.destroy());
    if (!match?.[1] || !hostAllowed(match[1], Number(match[2]), allow)) {
      return this.refuse(target, (status, text) =>
        socket.end(
          `HTTP/1.1 ${status} Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        ),
      );
    }
    const upstream = net.connect(Number(match[2]), match[1], () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', (error) => {
      if (socket.writable) socket.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${error.message}\n`);
    });
    socket.once('close', () => upstream.destroy());
  }
}

/** `registry.npmjs.org` (any port), `*.github.com` (its subdomains), `127.0.0.1:4873` (that port only). */
export function hostAllowed(host: string, port: number, allow: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allow.some((entry) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const plain = /^([^:]+)(?::(\d+))?$/.exec(entry);
    const pattern = (bracketed?.[1] ?? plain?.[1] ?? '').toLowerCase();
    const wanted = bracketed?.[2] ?? plain?.[2];
    if (wanted !== undefined && Number(wanted) !== port) return false;
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1));
    return name === pattern;
  });
}
