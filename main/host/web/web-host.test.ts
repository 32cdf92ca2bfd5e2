import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { PanelHandlers, Settings } from '../../../protocol/api.ts';
import { PANEL_SOCKET_PROTOCOL, socketProtocols } from '../../../protocol/socket.ts';
import { PanelEventHub } from '../panel-events.ts';
import { startWebHost, type WebHost } from './web-host.ts';

// The web host with a real HTTP server and a real ws client. The handlers are a plain object: the
// web host's job is the edge (token, Origin, validation, framing), whatever answers behind it.

const settings: Settings = {
  model: 'demo',
  effort: 'medium',
  permission_mode: 'ask',
  theme: 'system',
  keys: { anthropic: false, openai: false },
  missing_key: null,
  send_key: 'enter',
  updates_enabled: false,
};
const received: unknown[] = [];
const handlers = new Proxy({} as PanelHandlers, {
  get: (_target, channel: string) => async (request: unknown) => {
    received.push({ channel, request });
    if (channel === 'panel:info')
      return { workspace: '/w', session: null, models: ['demo'], tools: ['read_file'], version: '0.0.0' };
    if (channel === 'settings:get') return { ok: true, value: settings };
    return { ok: true, value: undefined };
  },
});

let root: string;
let events: PanelEventHub;
let host: WebHost;

beforeEach(async () => {
  received.length = 0;
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-web-'));
  await mkdir(path.join(root, 'assets'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>panel</title>');
  await writeFile(path.join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(os.tmpdir(), 'aether-web-secret.txt'), 'secret');
  events = new PanelEventHub();
  host = await startWebHost({ handlers, events, rendererDir: root, token: 'test-token-123' });
});

afterEach(async () => {
  await host.close();
  await rm(root, { recursive: true, force: true });
});

function open(query = '?token=test-token-123', headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Opens the socket as the page does: no query, the token among the offered subprotocols. */
function openWith(protocols: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api`, protocols);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Sends raw bytes (what fetch and ws would never send) and resolves with the status line. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) =>
    ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)),
  );
}

describe('web host', () => {
  it('binds to 127.0.0.1 and prints a URL carrying the token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=test-token-123`);
  });

  it('generates a long random token when none is given', async () => {
    const other = await startWebHost({ handlers, events, rendererDir: root });
    await other.close();
    expect(other.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other.token).not.toBe(host.token);
  });

  it('serves the page with the CSP header when the token is right', async () => {
    const response = await fetch(host.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>panel</title>');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self';");
  });

  it('refuses the page without the token or with a wrong one', async () => {
    expect((await fetch(`http://127.0.0.1:${host.port}/`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${host.port}/?token=test-token-12`)).status).toBe(401);
  });

  it('lets assets load with the cookie the first page load set', async () => {
    const page = await fetch(host.url);
    const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
    const asset = await fetch(`http://127.0.0.1:${host.port}/assets/app.js`, { headers: { cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('never puts the token in the cookie, and the cookie alone opens no socket', async () => {
    const page = await fetch(host.url);
    const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^aether_assets_\d+=\S{20,}$/);
    expect(cookie).not.toContain('test-token-123');
    await expect(open('', { cookie })).rejects.toThrow('HTTP 401');
    const ws = await open('?token=test-token-123', { cookie });
    ws.close();
  });

  it('refuses paths that climb out of the renderer folder', async () => {
    const response = await fetch(`http://127.0.0.1:${host.port}/..%2Faether-web-secret.txt?token=test-token-123`);
    expect(response.status).toBe(404);
  });

  it('refuses a request for another Host name', async () => {
    // fetch() may not set Host, so this one goes through node:http.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpGet(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/?token=test-token-123',
          headers: { host: `evil.example:${host.port}` },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      request.on('error', reject);
    });
    expect(status).toBe(421);
  });

  it('answers a request target it cannot parse with 400 and keeps serving', async () => {
    // Sent before any token check, so any local client could otherwise stop the host.
    const upgrade = [
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
    ];
    for (const extra of [upgrade, []]) {
      const head = await rawRequest(
        `GET http://[nope/api HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n${extra.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`,
      );
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect((await fetch(host.url)).status).toBe(200);
  });

  it('answers a folder of the renderer with 404', async () => {
    expect((await fetch(`http://127.0.0.1:${host.port}/assets?token=test-token-123`)).status).toBe(404);
  });

  it('refuses a socket without the token', async () => {
    await expect(open('')).rejects.toThrow('HTTP 401');
  });

  it('accepts the token offered as a subprotocol and answers with the panel’s protocol, not the token', async () => {
    const ws = await openWith(socketProtocols('test-token-123'));
    expect(ws.protocol).toBe(PANEL_SOCKET_PROTOCOL);
    ws.close();
  });

  it('refuses a socket whose subprotocol carries a wrong token', async () => {
    await expect(openWith(socketProtocols('test-token-12'))).rejects.toThrow('HTTP 401');
  });

  it('refuses a socket from another Origin', async () => {
    await expect(open('?token=test-token-123', { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
  });

  it('accepts a socket from its own Origin', async () => {
    const ws = await open('?token=test-token-123', { origin: `http://127.0.0.1:${host.port}` });
    ws.close();
  });

  it('accepts an Origin it was told to allow, such as the renderer dev server', async () => {
    const other = await startWebHost({
      handlers,
      events,
      rendererDir: root,
      token: 't',
      extraOrigins: ['http://localhost:5173'],
    });
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${other.port}/api?token=t`, {
        headers: { origin: 'http://localhost:5173' },
      });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
    ws.close();
    await other.close();
  });

  it('answers a request with the same id', async () => {
    const ws = await open();
    const reply = nextMessage(ws);
    ws.send(JSON.stringify({ id: 7, channel: 'settings:get' }));
    expect(await reply).toEqual({ id: 7, response: { ok: true, value: settings } });
    ws.close();
  });

  it('validates the payload before a handler sees it', async () => {
    const ws = await open();
    const reply = nextMessage(ws);
    ws.send(JSON.stringify({ id: 8, channel: 'turn:send', request: { text: 42 } }));
    const message = await reply;
    expect(message['id']).toBe(8);
    expect(message['response']).toMatchObject({
      ok: false,
      error: expect.stringContaining('Invalid request for turn:send: text'),
    });
    expect(received).toEqual([]);
    ws.close();
  });

  it('answers an unknown channel with an error', async () => {
    const ws = await open();
    const reply = nextMessage(ws);
    ws.send(JSON.stringify({ id: 9, channel: 'fs:read', request: { path: '/etc/passwd' } }));
    expect(await reply).toEqual({ id: 9, error: 'Unknown channel fs:read.' });
    ws.close();
  });

  it('delivers panel events to every open socket', async () => {
    const first = await open();
    const second = await open();
    const a = nextMessage(first);
    const b = nextMessage(second);
    events.publish({ event: 'status', payload: { type: 'turn_started', turn_id: 't1', model: 'demo' } });
    const expected = { event: 'status', payload: { type: 'turn_started', turn_id: 't1', model: 'demo' } };
    expect(await a).toEqual(expected);
    expect(await b).toEqual(expected);
    first.close();
    second.close();
  });

  it('stops sending events to a closed socket', async () => {
    const ws = await open();
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.close();
    await closed;
    await expect.poll(() => events.size).toBe(0);
  });
});
