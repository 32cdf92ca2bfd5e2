import type {
  PanelApi,
  PanelChannel,
  PanelEventName,
  PanelEvents,
  RequestOf,
  ResponseOf,
  Unsubscribe,
} from '../protocol/api.ts';

// The panel API the renderer sees as `window.pythia`, built on the two ipcRenderer calls it needs.
// The renderer gets named functions and plain payloads only: never ipcRenderer, never the event.

/** The part of ipcRenderer this file uses; the real one is passed in by index.ts. */
export interface PanelIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function createPanelApi(ipc: PanelIpc): PanelApi {
  const request = <C extends PanelChannel>(channel: C, payload?: RequestOf<C>): Promise<ResponseOf<C>> =>
    ipc.invoke(channel, payload) as Promise<ResponseOf<C>>;

  const subscribe = <E extends PanelEventName>(name: E, callback: (payload: PanelEvents[E]) => void): Unsubscribe => {
    if (typeof callback !== 'function') throw new TypeError(`${name}: the callback must be a function.`);
    // Only the payload crosses: the IPC event (with its sender and ports) stays here.
    const listener = (_event: unknown, payload: unknown): void => callback(payload as PanelEvents[E]);
    ipc.on(name, listener);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipc.removeListener(name, listener);
    };
  };

  return {
    info: () => request('panel:info'),
    send: (text) => request('turn:send', { text }),
    stop: () => request('turn:stop'),
    cancel: (callId) => request('tool:cancel', { call_id: callId }),
    approve: (callId, answer) => request('tool:approve', { call_id: callId, answer }),
    toolContent: (callId) => request('tool:content', { call_id: callId }),
    listSessions: () => request('session:list'),
    openSession: (id) => request('session:open', { id }),
    newSession: () => request('session:new'),
    deleteSession: (id) => request('session:delete', { id }),
    getSettings: () => request('settings:get'),
    updateSettings: (patch) => request('settings:update', patch),
    setKey: (provider, key) => request('settings:set-key', { provider, key }),
    openLink: (url) => request('link:open', { url }),
    onStatus: (callback) => subscribe('status', callback),
    onSessionChanged: (callback) => subscribe('session:changed', callback),
  };
}
