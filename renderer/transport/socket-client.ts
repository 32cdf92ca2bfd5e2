import type {
  PanelChannel,
  PanelEventName,
  PanelEvents,
  RequestOf,
  ResponseOf,
  Unsubscribe,
} from '../../protocol/api.ts';
import { socketProtocols } from '../../protocol/socket.ts';
import { panelClient, type PanelApi } from '../../protocol/panel-client.ts';
import { openLinkInBrowser, type LinkPage } from './browser-links.ts';

// The panel API over the web host's socket, for a browser window: the same API the preload gives
// the desktop window.
// Wire contract, shared with main/host/:
//   socket URL     ws(s)://<page host>/api, the page's token offered as a subprotocol
//                  (protocol/socket.ts), so no URL the browser logs ever holds it
//   client→server  {"id": n, "channel": "<PanelRequests key>", "request": …}
//   server→client  {"id": n, "response": …}                   the reply to request n
//                  {"id": n, "error": "…"}                      request n could not be answered
//                  {"event": "<PanelEvents key>", "payload": …} a pushed event
// The socket reconnects with backoff; requests made while it is down wait for the next attempt.
// When a socket closes (or an attempt fails), every request not yet answered resolves as a failure
// a person can act on, and the ones still waiting are dropped: a request reported as failed is
// never sent later.

export type ConnectionStatus =
  { state: 'connecting' } | { state: 'connected' } | { state: 'disconnected'; retryInMs: number; reason: string };

export interface ConnectionSource {
  connection(): ConnectionStatus;
  onConnection(callback: (status: ConnectionStatus) => void): Unsubscribe;
}

export interface SocketClientOptions {
  url: string;
  /** Subprotocols offered at every connect: the panel's and the token (see socketAddressFor). */
  protocols?: string[];
  /** The WebSocket constructor; the browser's by default. */
  WebSocket?: typeof WebSocket;
  /** Delay before reconnect attempt `n` (0-based). */
  backoff?: (attempt: number) => number;
  /** Where links open (confirm, then a new tab); the page's `window` by default. */
  page?: LinkPage;
}

export type SocketPanelApi = PanelApi & ConnectionSource & { close(): void };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class Disconnected extends Error {
  override name = 'Disconnected';
}

/** 250 ms doubling to 8 s, with jitter so many windows do not knock at once. */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(8000, 250 * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/**
 * Where a page served by the web host connects: same host, `/api`, with the page's token offered
 * as a subprotocol rather than put in the URL. A page opened without its token gets a socket the
 * host refuses (its cookie opens static files only), and the panel shows it as disconnected.
 */
export function socketAddressFor(location: { protocol: string; host: string; search: string }): {
  url: string;
  protocols: string[];
} {
  const token = new URLSearchParams(location.search).get('token');
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return { url: `${scheme}://${location.host}/api`, protocols: socketProtocols(token) };
}

export function createSocketClient(options: SocketClientOptions): SocketPanelApi {
  const Socket = options.WebSocket ?? globalThis.WebSocket;
  const backoff = options.backoff ?? defaultBackoff;
  const pending = new Map<number, Pending>();
  const waiting: string[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = { state: 'connecting' };
  let socket: WebSocket | null = null;
  let nextId = 1;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const setStatus = (next: ConnectionStatus): void => {
    status = next;
    for (const listener of connectionListeners) listener(next);
  };

  const connect = (): void => {
    if (closed) return;
    setStatus({ state: 'connecting' });
    const ws = new Socket(options.url, options.protocols);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setStatus({ state: 'connected' });
      for (const frame of waiting.splice(0)) ws.send(frame);
    };
    ws.onmessage = (message: MessageEvent) => {
      if (typeof message.data === 'string') receive(message.data);
    };
    ws.onclose = (close: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      const reason =
        close.reason || (close.code === 1006 ? 'the panel host is not reachable' : `closed (${close.code})`);
      waiting.length = 0;
      for (const [id, request] of pending) {
        pending.delete(id);
        request.reject(new Disconnected(`The connection to the panel host was lost (${reason}).`));
      }
      if (closed) return;
      const delay = backoff(attempt);
      attempt += 1;
      setStatus({ state: 'disconnected', retryInMs: delay, reason });
      retryTimer = setTimeout(connect, delay);
    };
  };

  const receive = (data: string): void => {
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame === null || typeof frame !== 'object') return;
    const record = frame as Record<string, unknown>;
    if (typeof record['id'] === 'number' && ('response' in record || 'error' in record)) {
      const request = pending.get(record['id']);
      pending.delete(record['id']);
      if ('response' in record) request?.resolve(record['response']);
      else request?.reject(new Error(String(record['error'])));
    } else if (typeof record['event'] === 'string') {
      for (const listener of listeners.get(record['event']) ?? []) listener(record['payload']);
    }
  };

  const request = <C extends PanelChannel>(channel: C, body: RequestOf<C>): Promise<ResponseOf<C>> =>
    new Promise<ResponseOf<C>>((resolve, reject) => {
      if (closed) return reject(new Disconnected('The panel connection was closed.'));
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      const frame = JSON.stringify({ id, channel, request: body ?? null });
      if (socket && socket.readyState === Socket.OPEN) socket.send(frame);
      else waiting.push(frame);
    });

  const subscribe = <E extends PanelEventName>(event: E, callback: (payload: PanelEvents[E]) => void): Unsubscribe => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    const listener = callback as (payload: unknown) => void;
    set.add(listener);
    return () => set.delete(listener);
  };

  connect();

  return {
    ...panelClient(
      { request, subscribe },
      {
        // The host has no screen of this person's to open a link on: the page opens it (https: only).
        openLink: async (url) =>
          openLinkInBrowser(url, options.page ?? (typeof window === 'undefined' ? null : window)),
      },
    ),
    connection: () => status,
    onConnection: (callback) => {
      connectionListeners.add(callback);
      return () => connectionListeners.delete(callback);
    },
    close: () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      socket?.close();
      socket = null;
      for (const [id, request] of pending) {
        pending.delete(id);
        request.reject(new Disconnected('The panel connection was closed.'));
      }
    },
  };
}
