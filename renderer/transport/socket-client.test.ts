import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { StatusEvent } from '../../protocol/events.ts';
import type { LinkPage } from './browser-links.ts';
import { tokenFromProtocols } from '../../protocol/socket.ts';
import { createSocketClient, socketAddressFor, type ConnectionStatus, type SocketPanelApi } from './socket-client.ts';

// The client against a real socket server on loopback, speaking the web host's frames.

interface Frame {
  id: number;
  channel: string;
  request: unknown;
}

// Clients close first, then the servers.
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A host answering frames with `answer`; while `accepting` returns false, it refuses every connection. */
async function server(answer: (frame: Frame, socket: ServerSocket) => void, accepting: () => boolean = () => true) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: () => accepting() });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const sockets: ServerSocket[] = [];
  const frames: Frame[] = [];
  wss.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      frames.push(frame);
      answer(frame, socket);
    });
  });
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => resolve());
      }),
  );
  return { url: `ws://127.0.0.1:${port}/api?token=t`, sockets, frames, wss };
}

function client(url: string, page?: LinkPage): SocketPanelApi {
  const api = createSocketClient({ url, backoff: () => 20, ...(page ? { page } : {}) });
  cleanups.unshift(() => api.close());
  return api;
}

function next(api: SocketPanelApi, state: ConnectionStatus['state']): Promise<ConnectionStatus> {
  return new Promise((resolve) => {
    const stop = api.onConnection((status) => {
      if (status.state === state) {
        stop();
        resolve(status);
      }
    });
  });
}

const info = { workspace: '/w', session: null, models: ['demo'], tools: ['read_file'], version: '0.1.0' };

describe('socket client', () => {
  it('sends {id, channel, request} and resolves with the matching response', async () => {
    const host = await server((frame, socket) =>
      socket.send(JSON.stringify({ id: frame.id, response: { ok: true, value: undefined } })),
    );
    const api = client(host.url);
    await expect(api.approve('c7', 'once')).resolves.toEqual({ ok: true, value: undefined });
    expect(host.frames).toEqual([{ id: 1, channel: 'tool:approve', request: { call_id: 'c7', answer: 'once' } }]);
  });

  it("sends a card's cancel on tool:cancel with its call id, and returns the host's answer", async () => {
    const host = await server((frame, socket) =>
      socket.send(JSON.stringify({ id: frame.id, response: { ok: false, error: 'Call c8 is not running.' } })),
    );
    const api = client(host.url);
    await expect(api.cancel('c8')).resolves.toEqual({ ok: false, error: 'Call c8 is not running.' });
    expect(host.frames).toEqual([{ id: 1, channel: 'tool:cancel', request: { call_id: 'c8' } }]);
  });

  it('sends requests made before the socket opened once it opens', async () => {
    const host = await server((frame, socket) => socket.send(JSON.stringify({ id: frame.id, response: info })));
    const api = client(host.url);
    expect(api.connection().state).toBe('connecting');
    await expect(api.info()).resolves.toEqual(info);
    expect(host.frames[0]).toEqual({ id: 1, channel: 'panel:info', request: null });
  });

  it('delivers pushed events to subscribers until they unsubscribe', async () => {
    const host = await server(() => undefined);
    const api = client(host.url);
    const received: StatusEvent[] = [];
    const stop = api.onStatus((event) => received.push(event));
    await next(api, 'connected');
    const event: StatusEvent = { type: 'turn_started', turn_id: 't1', model: 'demo' };
    host.sockets[0]?.send(JSON.stringify({ event: 'status', payload: event }));
    await expect.poll(() => received).toEqual([event]);
    stop();
    host.sockets[0]?.send(JSON.stringify({ event: 'status', payload: event }));
    // A reply after the second event proves the event was processed before it.
    host.sockets[0]?.send(JSON.stringify({ event: 'session:changed', payload: { id: 's' } }));
    await new Promise<void>((resolve) => api.onSessionChanged(() => resolve()));
    expect(received).toHaveLength(1);
  });

  it('turns an {id, error} frame into a failure value', async () => {
    const host = await server((frame, socket) =>
      socket.send(JSON.stringify({ id: frame.id, error: 'Unknown channel.' })),
    );
    const api = client(host.url);
    await expect(api.listSessions()).resolves.toEqual({ ok: false, error: 'Unknown channel.' });
  });

  it('reports the lost connection, fails the request in flight, and reconnects', async () => {
    const host = await server((frame, socket) => {
      if (frame.channel === 'turn:stop') socket.terminate();
      else socket.send(JSON.stringify({ id: frame.id, response: info }));
    });
    const api = client(host.url);
    await next(api, 'connected');
    const disconnected = next(api, 'disconnected');
    const stopped = await api.stop();
    expect(stopped.ok).toBe(false);
    expect(!stopped.ok && stopped.error).toContain('connection to the panel host was lost');
    expect((await disconnected).state).toBe('disconnected');
    await next(api, 'connected');
    await expect(api.info()).resolves.toEqual(info);
    expect(host.sockets).toHaveLength(2);
  });

  it('never sends later a request it already reported as failed: one made while down fails with the attempt, and stays unsent', async () => {
    let accepting = true;
    const host = await server(
      (frame, socket) => socket.send(JSON.stringify({ id: frame.id, response: { ok: true, value: [] } })),
      () => accepting,
    );
    const api = client(host.url);
    await next(api, 'connected');
    accepting = false;
    const disconnected = next(api, 'disconnected');
    host.sockets[0]?.terminate();
    await disconnected;
    // Made while the host is down: the next attempt is refused, so the send fails.
    const sent = await api.send('make the change');
    expect(sent.ok).toBe(false);
    accepting = true;
    await next(api, 'connected');
    await expect(api.listSessions()).resolves.toEqual({ ok: true, value: [] });
    expect(host.frames.map((frame) => frame.channel)).toEqual(['session:list']);
  });
});

describe('links in a browser window', () => {
  /** The page's confirm and open, answering `confirm` with `answer` and keeping what was asked. */
  function page(answer: boolean) {
    const seen = { asked: [] as string[], opened: [] as unknown[][] };
    const links: LinkPage = {
      confirm: (message) => {
        seen.asked.push(message);
        return answer;
      },
      open: (...args) => seen.opened.push(args),
    };
    return { links, seen };
  }

  it('opens an https link in a new tab without an opener once the person confirms, without asking the host', async () => {
    const host = await server((frame, socket) =>
      socket.send(JSON.stringify({ id: frame.id, response: { ok: false, error: 'host cannot' } })),
    );
    const { links, seen } = page(true);
    const api = client(host.url, links);
    await expect(api.openLink('https://example.com/notes')).resolves.toEqual({ ok: true, value: undefined });
    expect(seen.asked).toEqual(['Open this link in a new tab?\n\nhttps://example.com/notes']);
    expect(seen.opened).toEqual([['https://example.com/notes', '_blank', 'noopener,noreferrer']]);
    expect(host.frames).toEqual([]);
  });

  it('opens nothing when the person declines', async () => {
    const host = await server(() => undefined);
    const { links, seen } = page(false);
    const api = client(host.url, links);
    await expect(api.openLink('https://example.com/notes')).resolves.toEqual({
      ok: false,
      error: 'The link was not opened.',
    });
    expect(seen.opened).toEqual([]);
  });

  it('never asks about or opens a link of another scheme', async () => {
    const host = await server(() => undefined);
    const { links, seen } = page(true);
    const api = client(host.url, links);
    for (const url of [
      'http://example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,<b>x</b>',
      'not a url',
    ]) {
      const opened = await api.openLink(url);
      expect(opened.ok).toBe(false);
    }
    expect(seen).toEqual({ asked: [], opened: [] });
  });
});

describe('socket address', () => {
  it('is the page’s host with /api, the token offered as a subprotocol and never in the URL', () => {
    expect(socketAddressFor({ protocol: 'http:', host: '127.0.0.1:4873', search: '?token=Zq-4_x&theme=dark' })).toEqual(
      {
        url: 'ws://127.0.0.1:4873/api',
        protocols: ['aethercodex.panel', 'aethercodex.token.Zq-4_x'],
      },
    );
  });

  it('uses wss for an https page', () => {
    expect(socketAddressFor({ protocol: 'https:', host: 'panel.local', search: '?token=x' }).url).toBe(
      'wss://panel.local/api',
    );
  });

  it('offers no token when the page has none, or one no subprotocol can carry', () => {
    for (const search of ['', '?token=a%20b', '?token=a,b'])
      expect(socketAddressFor({ protocol: 'http:', host: '127.0.0.1:1', search }).protocols).toEqual([
        'aethercodex.panel',
      ]);
  });

  it('reaches a host that checks the subprotocol token', async () => {
    const wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (info: { req: { headers: Record<string, string | string[] | undefined> } }) =>
        tokenFromProtocols(String(info.req.headers['sec-websocket-protocol'])) === 'Zq-4_x',
      handleProtocols: () => 'aethercodex.panel',
    });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    const address = wss.address();
    const host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const api = createSocketClient({ ...socketAddressFor({ protocol: 'http:', host, search: '?token=Zq-4_x' }) });
    cleanups.unshift(() => api.close());
    expect(await next(api, 'connected')).toEqual({ state: 'connected' });
  });
});
