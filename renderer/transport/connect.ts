import { errorMessage } from '../../protocol/errors.ts';
import type { Bridge } from './bridge.ts';
import { feedOf, stopFeed, type Schedule } from './session-feed.ts';
import type { PanelStore } from '../store/store.ts';

// Wires the bridge to the store, outside React. Live status events and session replays meet in
// the store's feed (session-feed.ts), which batches the events and hands them over to a replay.

export interface ConnectOptions {
  /** Runs `flush` soon and may return what cancels it; one frame later by default. */
  schedule?: Schedule;
}

export function connectPanel(api: Bridge, store: PanelStore, options: ConnectOptions = {}): () => void {
  const feed = feedOf(store);
  if (options.schedule) feed.setSchedule(options.schedule);
  let wasDisconnected = false;

  const unsubscribers = [
    api.onStatus((event) => feed.push(event)),
    api.onSessionChanged((session) => {
      const previous = store.getState().session?.id;
      store.getState().setSession(session);
      // Another window (or the host) switched sessions: show the one that is now current. The host
      // also announces the switch an open of this window asked for; that open shows it already.
      if (previous !== undefined && previous !== session.id) {
        feed.discardWaiting();
        if (feed.openingId !== session.id) void openSession(api, store, session.id);
      }
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
    stopFeed(store, feed);
  };
}

/** Info, settings, the session list and the current session's cards. */
export async function loadPanel(api: Bridge, store: PanelStore): Promise<void> {
  const state = store.getState();
  try {
    const info = await api.info();
    state.setInfo(info);
    const [settings, opened] = await Promise.all([
      api.getSettings(),
      info.session ? feedOf(store).open(api, info.session.id) : Promise.resolve(null),
    ]);
    if (settings.ok) state.setSettings(settings.value);
    else state.showError(settings.error);
    if (opened && !opened.ok) state.showError(opened.error);
  } catch (error) {
    state.showError(errorMessage(error));
  }
  await refreshSessions(api, store);
}

/** Opens a session and shows its replay (once, however many ask for it while it opens); false when it failed (the banner says why). */
export async function openSession(api: Bridge, store: PanelStore, id: string): Promise<boolean> {
  const opened = await feedOf(store).open(api, id);
  if (!opened.ok) store.getState().showError(opened.error);
  return opened.ok;
}

/** Puts the next older page of a long session in front of its transcript (one request at a time). */
export async function loadOlderEvents(api: Bridge, store: PanelStore): Promise<void> {
  const older = store.getState().olderEvents;
  if (!older || older.loading) return;
  store.getState().setOlderLoading(true);
  const page = await api.olderEvents(older.id, older.before);
  if (page.ok) store.getState().prependPage(page.value);
  else {
    store.getState().setOlderLoading(false);
    store.getState().showError(page.error);
  }
}

/** Fetches the session list; a failure goes to the banner. */
export async function refreshSessions(api: Bridge, store: PanelStore): Promise<void> {
  const listed = await api.listSessions();
  if (listed.ok) store.getState().setSessions(listed.value);
  else store.getState().showError(listed.error);
}
