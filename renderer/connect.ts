import type { StatusEvent } from '../protocol/events.ts';
import type { Bridge } from './bridge.ts';
import type { PanelStore } from './store/store.ts';

// Wires the bridge to the store, outside React. Status events are applied in batches, at most one
// batch per frame, so a flood of deltas or progress reports costs one render, not hundreds.

export interface ConnectOptions {
  /** Runs `flush` soon; one frame later by default. */
  schedule?: (flush: () => void) => void;
}

export function connectPanel(api: Bridge, store: PanelStore, options: ConnectOptions = {}): () => void {
  const schedule = options.schedule ?? ((flush: () => void) => void setTimeout(flush, 16));
  let queue: StatusEvent[] = [];
  let scheduled = false;
  let wasDisconnected = false;

  const flush = (): void => {
    scheduled = false;
    const batch = queue;
    queue = [];
    store.getState().applyEvents(batch);
  };

  const unsubscribers = [
    api.onStatus((event) => {
      queue.push(event);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    }),
    api.onSessionChanged((session) => {
      const previous = store.getState().session?.id;
      store.getState().setSession(session);
      // Another window (or the host) switched sessions: show the one that is now current.
      if (previous !== undefined && previous !== session.id) void openCurrent(api, store, session.id);
      void refreshSessions(api, store);
    }),
    api.onConnection((status) => {
      if (status.state === 'disconnected') {
        wasDisconnected = true;
        store.getState().setConnection('disconnected', Math.ceil(status.retryInMs / 1000));
      } else if (status.state === 'connecting' && wasDisconnected) {
        // The banner stays up through the retry; it only goes when the socket is back.
        store.getState().setConnection('disconnected', null);
      } else {
        store.getState().setConnection(status.state);
      }
      // Events sent while the socket was down are gone; the session's durable log is not.
      if (status.state === 'connected' && wasDisconnected) {
        wasDisconnected = false;
        void loadPanel(api, store);
      }
    }),
  ];
  const initial = api.connection();
  store.getState().setConnection(initial.state === 'disconnected' ? 'disconnected' : initial.state);
  void loadPanel(api, store);
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}

/** Info, settings, the session list and the current session's cards. */
export async function loadPanel(api: Bridge, store: PanelStore): Promise<void> {
  const state = store.getState();
  try {
    const info = await api.info();
    state.setInfo(info);
    const [settings, opened] = await Promise.all([api.getSettings(), info.session ? api.openSession(info.session.id) : Promise.resolve(null)]);
    if (settings.ok) state.setSettings(settings.value);
    else state.showError(settings.error);
    if (opened?.ok) state.replaySession(opened.value);
    else if (opened && !opened.ok) state.showError(opened.error);
  } catch (error) {
    state.showError(error instanceof Error ? error.message : String(error));
  }
  await refreshSessions(api, store);
}

async function openCurrent(api: Bridge, store: PanelStore, id: string): Promise<void> {
  const opened = await api.openSession(id);
  if (opened.ok && store.getState().session?.id === id) store.getState().replaySession(opened.value);
}

export async function refreshSessions(api: Bridge, store: PanelStore): Promise<void> {
  const listed = await api.listSessions();
  if (listed.ok) store.getState().setSessions(listed.value);
}
