import type { PanelApi } from '../../protocol/panel-client.ts';
import { createSocketClient, socketAddressFor, type ConnectionSource, type ConnectionStatus } from './socket-client.ts';

// The renderer's only door to the panel: `window.pythia` from the Electron preload when present,
// else the web host's socket. Both are the generic client of protocol/panel-client.ts.

declare global {
  interface Window {
    pythia?: PanelApi;
  }
}

export type Bridge = PanelApi & ConnectionSource;

const ALWAYS_CONNECTED: ConnectionStatus = { state: 'connected' };

/**
 * The preload's API, which already answers every request with a value (protocol/panel-client.ts);
 * inside Electron the panel is always there. The functions are copied: the preload's object is
 * frozen by contextBridge and must not be extended.
 */
export function preloadBridge(api: PanelApi): Bridge {
  return { ...api, connection: () => ALWAYS_CONNECTED, onConnection: () => () => undefined };
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
