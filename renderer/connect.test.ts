import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { OpenedSession, PanelInfo, SessionSummary, Settings } from '../protocol/api.ts';
import type { StatusEvent } from '../protocol/events.ts';
import { connectPanel } from './connect.ts';
import { createSocketClient, type SocketPanelApi } from './socket-client.ts';
import { createPanelStore } from './store/store.ts';

// The wiring between the bridge and the store, over a real socket to a small host that answers
// the panel's requests from a session held in memory.

const summary: SessionSummary = { id: 's1', title: 'Fix app.ts', workspace: '/w', created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const settings: Settings = { model: 'demo', effort: 'medium', permission_mode: 'ask', theme: 'system', keys: { anthropic: false, openai: false }, missing_key: null, updates_enabled: false };

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function host(durable: StatusEvent[]) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const answers: Record<string, () => unknown> = {
    'panel:info': (): PanelInfo => ({ workspace: '/w', session: summary, models: ['demo'], tools: ['read_file'], version: '0.1.0' }),
    'settings:get': () => ({ ok: true, value: settings }),
    'session:list': () => ({ ok: true, value: [summary] }),
    'session:open': () => ({ ok: true, value: { summary, events: durable, corrupt_lines: 0, usage: { input_tokens: 0, output_tokens: 0 } } satisfies OpenedSession }),
  };
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { id: number; channel: string };
      socket.send(JSON.stringify({ id: frame.id, response: answers[frame.channel]?.() ?? { ok: false, error: 'no' } }));
    });
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => resolve());
      }),
  );
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const push = (event: StatusEvent) => {
    for (const socket of wss.clients) socket.send(JSON.stringify({ event: 'status', payload: event }));
  };
  const sockets = (): ServerSocket[] => [...wss.clients];
  const switchTo = (session: SessionSummary) => {
    for (const socket of wss.clients) socket.send(JSON.stringify({ event: 'session:changed', payload: session }));
  };
  return { url: `ws://127.0.0.1:${port}/api?token=t`, push, sockets, switchTo };
}

function connected(url: string, options: Parameters<typeof connectPanel>[2] = {}) {
  const api: SocketPanelApi = createSocketClient({ url, backoff: () => 20 });
  const store = createPanelStore();
  const disconnect = connectPanel(api, store, options);
  cleanups.unshift(() => {
    disconnect();
    api.close();
  });
  return { api, store };
}

const userTurn: StatusEvent[] = [
  { type: 'user_message', turn_id: 't1', text: 'read it' },
  { type: 'tool_started', call_id: 'c1', name: 'write_file', args: { path: 'a.md' }, turn_id: 't1' },
  { type: 'tool_completed', call_id: 'c1', name: 'write_file', execution_time: 2, is_error: false, result: '' },
];

describe('connectPanel', () => {
  it('loads the workspace, settings, sessions and the current session’s cards', async () => {
    const server = await host(userTurn);
    const { store } = connected(server.url);
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    const state = store.getState();
    expect(state.workspace).toBe('/w');
    expect(state.tools).toEqual(['read_file']);
    expect(state.settings?.model).toBe('demo');
    expect(state.sessions).toEqual([summary]);
    expect(state.transcript.calls['c1']?.state).toBe('done');
    expect(state.connection).toBe('connected');
  });

  it('applies the status events that arrive together as one batch', async () => {
    const server = await host([]);
    const flushes: Array<() => void> = [];
    const { api, store } = connected(server.url, { schedule: (flush) => flushes.push(flush) });
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    const delivered: StatusEvent[] = [];
    api.onStatus((event) => delivered.push(event));
    let updates = 0;
    store.subscribe(() => (updates += 1));
    for (const event of userTurn) server.push(event);
    await expect.poll(() => delivered.length).toBe(userTurn.length);
    expect(flushes).toHaveLength(1);
    flushes[0]?.();
    expect(updates).toBe(1);
    expect(store.getState().transcript.order).toHaveLength(2);
  });

  it('shows the disconnection and rebuilds the session from its log after reconnecting', async () => {
    const durable: StatusEvent[] = [];
    const server = await host(durable);
    const { store } = connected(server.url);
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    expect(store.getState().transcript.order).toEqual([]);
    // Events the panel missed while the socket was down are in the session's durable log.
    durable.push(...userTurn);
    const seen: string[] = [];
    store.subscribe((state) => seen.push(state.connection));
    for (const socket of server.sockets()) socket.terminate();
    await expect.poll(() => store.getState().transcript.calls['c1']?.state).toBe('done');
    expect(seen).toContain('disconnected');
    expect(store.getState().connection).toBe('connected');
  });

  it('follows a switch to another session made elsewhere, showing that session’s cards', async () => {
    const durable: StatusEvent[] = [];
    const server = await host(durable);
    const { store } = connected(server.url);
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    durable.push(...userTurn);
    server.switchTo({ ...summary, id: 's2', title: 'Other' });
    await expect.poll(() => store.getState().transcript.calls['c1']?.state).toBe('done');
  });
});
