import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { errorMessage } from '../../../protocol/errors.ts';
import type { PanelHandlers } from '../../../protocol/api.ts';
import { PANEL_SOCKET_PROTOCOL, tokenFromProtocols } from '../../../protocol/socket.ts';
import { contentSecurityPolicy, PANEL_HEADERS } from '../csp.ts';
import type { PanelEventMessage, PanelEventSource } from '../panel-events.ts';
import { dispatchPanelRequest, isPanelChannel } from '../panel-schemas.ts';
import { mimeType, resolveStaticFile } from './static-files.ts';

// The web host: the built renderer and the panel API over a web socket, for a browser on this
// machine. Bound to 127.0.0.1 only; every socket request must carry the random token of the
// printed URL (the page offers it as a subprotocol, see protocol/socket.ts; `?token=` also works);
// the page's static files also load with the asset-only cookie the first page load sets (never the
// token: cookies reach every port of 127.0.0.1); requests from another Origin or for another Host
// (DNS rebinding) are refused.
//
// Socket wire contract, at ws://<host>/api (token as a subprotocol, or ?token=<token>):
//   client → server  {"id": n, "channel": "<PanelRequests key>", "request": …}
//   server → client  {"id": n, "response": …}     the handler's answer
//                    {"id": n, "error": "…"}       a request that could not be answered at all
//                                                  (unknown channel, malformed message)
//                    {"event": "<PanelEvents key>", "payload": …}

export interface WebHostOptions {
  handlers: PanelHandlers;
  events: PanelEventSource;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** A fixed token (tests); otherwise 32 random bytes. */
  token?: string;
  /** Extra Origins (and their Hosts) allowed in, such as the renderer's dev server proxying /api. */
  extraOrigins?: string[];
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** Live-only events are dropped for a socket that has this much unsent; durable ones never are. */
const LIVE_BACKLOG_LIMIT = 8 * 1024 * 1024;
const MAX_MESSAGE = 4 * 1024 * 1024;

const envelopeSchema = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string().max(64),
  request: z.unknown().optional(),
});

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const tokenDigest = digest(token);
  const server = createServer();
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE,
    // The token the page offered is never echoed back: the handshake answers with the panel's name.
    handleProtocols: (offered) => (offered.has(PANEL_SOCKET_PROTOCOL) ? PANEL_SOCKET_PROTOCOL : false),
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const cookieName = `aether_assets_${port}`;
  // Cookies are shared by every port of a host, so the cookie never carries the token: it holds a
  // key that opens the page's static files only. The socket (the panel API) needs the token itself.
  const assetKey = randomBytes(32).toString('base64url');
  const assetKeyDigest = digest(assetKey);
  const hosts = new Set([
    `${HOST}:${port}`,
    `localhost:${port}`,
    ...(options.extraOrigins ?? []).map((origin) => new URL(origin).host),
  ]);
  const origins = new Set([`http://${HOST}:${port}`, `http://localhost:${port}`, ...(options.extraOrigins ?? [])]);
  const csp = contentSecurityPolicy({ connect: [`ws://${HOST}:${port}`, `ws://localhost:${port}`] });

  /** Why a request is refused, or null when it may go on. */
  const refusal = (
    request: IncomingMessage,
    url: URL,
    access: 'asset' | 'api',
  ): { status: number; message: string } | null => {
    if (!hosts.has(request.headers.host ?? ''))
      return { status: 421, message: 'Unknown Host: open the URL that `aether serve` printed.' };
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin))
      return { status: 403, message: `Requests from ${origin} are not allowed.` };
    const token =
      url.searchParams.get('token') ??
      (access === 'api' ? tokenFromProtocols(request.headers['sec-websocket-protocol']) : null);
    if (token !== null && timingSafeEqual(digest(token), tokenDigest)) return null;
    const key = access === 'asset' ? cookieValue(request.headers.cookie, cookieName) : null;
    if (key !== null && timingSafeEqual(digest(key), assetKeyDigest)) return null;
    return {
      status: 401,
      message: 'Missing or wrong token: open the full URL that `aether serve` printed, with its ?token=….',
    };
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void serveHttp(request, response).catch((error: unknown) => {
      console.error('web host request failed:', error);
      if (!response.headersSent) sendText(response, 500, 'The panel could not serve this request.');
      else response.destroy();
    });
  });

  async function serveHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = requestUrl(request, port);
    if (url === null) return sendText(response, 400, 'Malformed request URL.');
    const refused = refusal(request, url, url.pathname === '/api' ? 'api' : 'asset');
    if (refused) return sendText(response, refused.status, refused.message);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return sendText(response, 405, 'Only GET and HEAD are served.');
    if (url.pathname === '/api') return sendText(response, 426, 'The panel API is a web socket: connect with ws://.');
    const file = await resolveStaticFile(options.rendererDir, url.pathname);
    if (file === null) {
      const missing =
        url.pathname === '/' ? ` The renderer is not built in ${options.rendererDir}: run \`npm run build\`.` : '';
      return sendText(response, 404, `Not found.${missing}`);
    }
    const body = await readFile(file);
    const headers: Record<string, string> = {
      ...PANEL_HEADERS,
      'content-security-policy': csp,
      'content-type': mimeType(file),
      'content-length': String(body.length),
    };
    // The page's own assets carry no query, so the first authorised load hands over the asset key.
    if (url.searchParams.has('token'))
      headers['set-cookie'] = `${cookieName}=${assetKey}; Path=/; HttpOnly; SameSite=Strict`;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = requestUrl(request, port);
    const refused =
      url === null
        ? { status: 400, message: 'Malformed request URL.' }
        : url.pathname === '/api'
          ? refusal(request, url, 'api')
          : { status: 404, message: 'Not found.' };
    if (refused) {
      socket.end(
        `HTTP/1.1 ${refused.status} Refused\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${refused.message}`,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => connect(ws));
  });

  const connect = (ws: WebSocket): void => {
    const unsubscribe = options.events.subscribe((message: PanelEventMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      if (isLive(message) && ws.bufferedAmount > LIVE_BACKLOG_LIMIT) return;
      ws.send(JSON.stringify(message));
    });
    ws.on('close', unsubscribe);
    ws.on('error', unsubscribe);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return reply(ws, { error: 'Send requests as JSON text.' });
      void answer(ws, data.toString());
    });
  };

  const answer = async (ws: WebSocket, text: string): Promise<void> => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return reply(ws, { error: 'A request must be JSON: {"id": n, "channel": "…", "request": …}.' });
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success)
      return reply(ws, { error: 'A request must look like {"id": n, "channel": "…", "request": …}.' });
    const { id, channel, request } = envelope.data;
    if (!isPanelChannel(channel)) return reply(ws, { id, error: `Unknown channel ${channel}.` });
    try {
      reply(ws, { id, response: await dispatchPanelRequest(options.handlers, channel, request) });
    } catch (error) {
      reply(ws, { id, error: errorMessage(error) });
    }
  };

  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(ws: WebSocket, message: object): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function isLive(message: PanelEventMessage): boolean {
  return (
    message.event === 'status' &&
    (message.payload.type === 'assistant_delta' ||
      message.payload.type === 'reasoning_delta' ||
      message.payload.type === 'tool_progress' ||
      message.payload.type === 'context_estimate')
  );
}

/**
 * The request's URL, or null when it cannot be parsed. Node's parser lets through request targets
 * that the URL parser refuses (`GET http://[x/ …`), and any client can send one before the token
 * is checked: a throw here would take the whole host down.
 */
function requestUrl(request: IncomingMessage, port: number): URL | null {
  return URL.parse(request.url ?? '/', `http://${HOST}:${port}`);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...PANEL_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-security-policy': "default-src 'none'",
  });
  response.end(text);
}
