import type { PanelApi } from '../protocol/api.ts';
import { createSocketClient, socketUrlFor, type ConnectionSource, type ConnectionStatus } from './socket-client.ts';

// The renderer's only door to the panel: `window.pythia` from the Electron preload when present,
// else the web host's socket. Both implement `PanelApi` from protocol/.

declare global {
  interface Window {
    pythia?: PanelApi;
  }
}

export type Bridge = PanelApi & ConnectionSource;

const ALWAYS_CONNECTED: ConnectionStatus = { state: 'connected' };

/** Wraps the preload's API: inside Electron the panel is always there. */
export function preloadBridge(api: PanelApi): Bridge {
  // Copy the functions: the preload's object is frozen by contextBridge and must not be extended.
  return {
    info: () => api.info(),
    send: (text) => api.send(text),
    stop: () => api.stop(),
    cancel: (callId) => api.cancel(callId),
    approve: (callId, answer) => api.approve(callId, answer),
    toolContent: (callId) => api.toolContent(callId),
    listSessions: () => api.listSessions(),
    openSession: (id) => api.openSession(id),
    newSession: () => api.newSession(),
    deleteSession: (id) => api.deleteSession(id),
    getSettings: () => api.getSettings(),
    updateSettings: (patch) => api.updateSettings(patch),
    setKey: (provider, key) => api.setKey(provider, key),
    openLink: (url) => api.openLink(url),
    onStatus: (callback) => api.onStatus(callback),
    onSessionChanged: (callback) => api.onSessionChanged(callback),
    connection: () => ALWAYS_CONNECTED,
    onConnection: () => () => undefined,
  };
}

export function chooseBridge(target: Pick<Window, 'pythia' | 'location'>): Bridge {
  if (target.pythia) return preloadBridge(target.pythia);
  return createSocketClient({ url: socketUrlFor(target.location) });
}

let current: Bridge | null = null;

/** The panel API for this window, chosen once on first use. */
export function bridge(): Bridge {
  current ??= chooseBridge(window);
  return current;
}
