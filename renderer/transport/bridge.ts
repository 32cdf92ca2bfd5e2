import type { PanelApi, Result } from '../../protocol/api.ts';
import { createSocketClient, socketAddressFor, type ConnectionSource, type ConnectionStatus } from './socket-client.ts';

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
/** A request that throws (an IPC call the main process refused) comes back as a failure value. */
export async function settle<T>(request: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await request();
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export function preloadBridge(api: PanelApi): Bridge {
  // Copy the functions: the preload's object is frozen by contextBridge and must not be extended.
  // Every request answers with a value, as the socket client does, even when IPC itself fails.
  return {
    info: () => api.info(),
    send: (text) => settle(() => api.send(text)),
    stop: () => settle(() => api.stop()),
    cancel: (callId) => settle(() => api.cancel(callId)),
    approve: (callId, answer) => settle(() => api.approve(callId, answer)),
    toolContent: (callId) => settle(() => api.toolContent(callId)),
    listSessions: () => settle(() => api.listSessions()),
    openSession: (id) => settle(() => api.openSession(id)),
    newSession: () => settle(() => api.newSession()),
    deleteSession: (id) => settle(() => api.deleteSession(id)),
    getSettings: () => settle(() => api.getSettings()),
    updateSettings: (patch) => settle(() => api.updateSettings(patch)),
    setKey: (provider, key) => settle(() => api.setKey(provider, key)),
    openLink: (url) => settle(() => api.openLink(url)),
    onStatus: (callback) => api.onStatus(callback),
    onSessionChanged: (callback) => api.onSessionChanged(callback),
    connection: () => ALWAYS_CONNECTED,
    onConnection: () => () => undefined,
  };
}

export function chooseBridge(target: Pick<Window, 'pythia' | 'location'>): Bridge {
  if (target.pythia) return preloadBridge(target.pythia);
  return createSocketClient(socketAddressFor(target.location));
}

let current: Bridge | null = null;

/** The panel API for this window, chosen once on first use. */
export function bridge(): Bridge {
  current ??= chooseBridge(window);
  return current;
}
