import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { OpenedSession, PanelInfo, SessionSummary, Settings } from '../../protocol/api.ts';
import { panelClient, type PanelApi } from '../../protocol/panel-client.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { createActions } from '../actions.ts';
import { preloadBridge } from './bridge.ts';
import { connectPanel, refreshSessions } from './connect.ts';
import { createSocketClient, type SocketPanelApi } from './socket-client.ts';
import { createPanelStore } from '../store/store.ts';

// The wiring between the bridge and the store, over a real socket to a small host that answers
// the panel's requests from a session held in memory.

const summary: SessionSummary = {
  id: 's1',
  title: 'Fix app.ts',
  workspace: '/w',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};
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

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface HostOptions {
  /** Runs when session `id` is asked for, before the host answers; the answer waits for it. */
  beforeOpen?: (socket: ServerSocket, id: string) => void | Promise<void>;
}

async function host(durable: StatusEvent[], options: HostOptions = {}) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const opened: string[] = [];
  const answers: Record<string, (request: { id?: string } | null) => unknown> = {
    'panel:info': (): PanelInfo => ({
      workspace: '/w',
      session: summary,
      models: ['demo'],
      tools: ['read_file'],
      version: '0.1.0',
    }),
    'settings:get': () => ({ ok: true, value: settings }),
    'session:list': () => ({ ok: true, value: [summary] }),
    'session:open': (request) => ({
      ok: true,
      value: {
        summary: { ...summary, id: request?.id ?? summary.id },
        events: durable,
        corrupt_lines: 0,
        usage: { input_tokens: 0, output_tokens: 0 },
      } satisfies OpenedSession,
    }),
  };
  wss.on('connection', (socket) => {
    socket.on('message', async (data) => {
      const frame = JSON.parse(String(data)) as { id: number; channel: string; request: { id?: string } | null };
      if (frame.channel === 'session:open') {
        opened.push(frame.request?.id ?? '');
        await options.beforeOpen?.(socket, frame.request?.id ?? '');
      }
      socket.send(
        JSON.stringify({
          id: frame.id,
          response: answers[frame.channel]?.(frame.request) ?? { ok: false, error: 'no' },
        }),
      );
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
  return { url: `ws://127.0.0.1:${port}/api?token=t`, push, sockets, switchTo, opened };
}

function connected(url: string, options: Parameters<typeof connectPanel>[2] = {}) {
  const api: SocketPanelApi = createSocketClient({ url, backoff: () => 20 });
  const store = createPanelStore();
  const disconnect = connectPanel(api, store, options);
  cleanups.unshift(() => {
    disconnect();
    api.close();
  });
  return { api, store, disconnect };
}

/** A schedule that keeps the flushes for the test to run. */
function heldFrames() {
  const flushes: Array<() => void> = [];
  return {
    schedule: (flush: () => void) => {
      flushes.push(flush);
    },
    runAll: () => {
      for (const flush of flushes.splice(0)) flush();
    },
    flushes,
  };
}

const send = (socket: ServerSocket, event: string, payload: unknown) => socket.send(JSON.stringify({ event, payload }));

const userTurn: StatusEvent[] = [
  { type: 'user_message', turn_id: 't1', text: 'read it' },
  { type: 'tool_started', call_id: 'c1', name: 'write_file', args: { path: 'a.md' }, turn_id: 't1' },
  {
    type: 'tool_completed',
    call_id: 'c1',
    name: 'write_file',
    execution_time: 2,
    is_error: false,
    result: { kind: 'text', text: '' },
  },
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
    const { flushes, schedule } = heldFrames();
    const { api, store } = connected(server.url, { schedule });
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

  it('opens a session once when the host announces the switch before it answers the open', async () => {
    const server = await host(userTurn, {
      beforeOpen: (socket, id) => send(socket, 'session:changed', { ...summary, id }),
    });
    const { api, store } = connected(server.url);
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    await createActions(api, store).openSession('s2');
    // The host reads frames in order: once this is answered, any second open has reached it.
    await api.info();
    expect(server.opened).toEqual(['s1', 's2']);
    expect(store.getState().session?.id).toBe('s2');
  });

  it('applies a live event already in the replayed log once, when it arrives just before the replay', async () => {
    const usage = { input_tokens: 10, output_tokens: 5 };
    const completed: StatusEvent = { type: 'turn_completed', turn_id: 't1', usage, stop_reason: 'end', seq: 3 };
    const durable: StatusEvent[] = [
      { type: 'user_message', turn_id: 't1', text: 'hi', seq: 1 },
      { type: 'turn_started', turn_id: 't1', model: 'demo', seq: 2 },
      completed,
    ];
    // The host forwards an event after writing it: the open reads it from the file and also sees it go out.
    const server = await host(durable, { beforeOpen: (socket) => send(socket, 'status', completed) });
    const frames = heldFrames();
    const { store } = connected(server.url, { schedule: frames.schedule });
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    frames.runAll();
    expect(store.getState().transcript.usage).toEqual(usage);
  });

  it('keeps a live event that arrives while the session is opening and is not in the replayed log', async () => {
    const durable: StatusEvent[] = [
      { type: 'user_message', turn_id: 't1', text: 'hi', seq: 1 },
      { type: 'turn_started', turn_id: 't1', model: 'demo', seq: 2 },
    ];
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await host(durable, {
      beforeOpen: (socket) => {
        send(socket, 'status', { type: 'assistant_delta', turn_id: 't1', text: 'Hel', seq: 3 } satisfies StatusEvent);
        return held;
      },
    });
    const frames = heldFrames();
    const { api, store } = connected(server.url, { schedule: frames.schedule });
    const delivered: StatusEvent[] = [];
    api.onStatus((event) => delivered.push(event));
    await expect.poll(() => delivered.length).toBe(1);
    // The frame comes before the replay does.
    frames.runAll();
    release();
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    frames.runAll();
    expect(store.getState().transcript.messages['assistant:t1:0']).toMatchObject({ text: 'Hel', streaming: true });
  });

  it('leaves the previous session’s live events out of the session switched to elsewhere', async () => {
    const durable: StatusEvent[] = [];
    const server = await host(durable);
    const frames = heldFrames();
    const { store } = connected(server.url, { schedule: frames.schedule });
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    durable.push(...userTurn.map((event, index) => ({ ...event, seq: index + 1 })));
    server.push({ type: 'user_message', turn_id: 'old', text: 'in s1', seq: 40 });
    server.switchTo({ ...summary, id: 's2', title: 'Other' });
    await expect.poll(() => store.getState().transcript.calls['c1']?.state).toBe('done');
    frames.runAll();
    expect(store.getState().transcript.messages['user:old']).toBeUndefined();
  });

  it('drops the batch scheduled for the next frame when unhooked', async () => {
    const server = await host([]);
    const frames = heldFrames();
    const { api, store, disconnect } = connected(server.url, { schedule: frames.schedule });
    await expect.poll(() => store.getState().sessionsLoaded).toBe(true);
    const delivered: StatusEvent[] = [];
    api.onStatus((event) => delivered.push(event));
    server.push(userTurn[0]!);
    await expect.poll(() => delivered.length).toBe(1);
    expect(frames.flushes).toHaveLength(1);
    disconnect();
    frames.runAll();
    expect(store.getState().transcript.order).toEqual([]);
  });
});

describe('refreshSessions in the Electron window', () => {
  // What ipcRenderer.invoke does when the main process's handler throws, under the preload's client.
  const refusingPreload = (message: string): PanelApi =>
    panelClient({
      request: (channel) => Promise.reject(new Error(`Error invoking remote method '${channel}': ${message}`)),
      subscribe: () => () => undefined,
    });

  it('shows a refused request in the error banner instead of rejecting', async () => {
    const store = createPanelStore();
    const bridge = preloadBridge(refusingPreload('Error: Refused session:list: unknown sender.'));
    await expect(refreshSessions(bridge, store)).resolves.toBeUndefined();
    expect(store.getState().error).toContain('Refused session:list');
  });

  it('answers every refused request with a failure value, as the socket client does', async () => {
    const bridge = preloadBridge(refusingPreload('Refused: unknown sender.'));
    const failure = (channel: string) => ({
      ok: false,
      error: `Error invoking remote method '${channel}': Refused: unknown sender.`,
    });
    await expect(bridge.send('hi')).resolves.toEqual(failure('turn:send'));
    await expect(bridge.stop()).resolves.toEqual(failure('turn:stop'));
    await expect(bridge.cancel('c1')).resolves.toEqual(failure('tool:cancel'));
    await expect(bridge.approve('c1', 'once')).resolves.toEqual(failure('tool:approve'));
    await expect(bridge.updateSettings({ theme: 'dark' })).resolves.toEqual(failure('settings:update'));
    await expect(bridge.setKey('anthropic', null)).resolves.toEqual(failure('settings:set-key'));
    await expect(bridge.openLink('https://example.com/')).resolves.toEqual(failure('link:open'));
    await expect(bridge.info()).rejects.toThrow("Error invoking remote method 'panel:info'");
  });
});
