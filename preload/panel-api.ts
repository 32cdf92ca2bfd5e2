import type { PanelChannel, PanelEventName, PanelEvents, RequestOf, ResponseOf, Unsubscribe } from '../protocol/api.ts';
import { panelClient, type PanelApi, type PanelTransport } from '../protocol/panel-client.ts';

// The panel API the renderer sees as `window.pythia`: the generic client over the two ipcRenderer
// calls it needs. The renderer gets named functions and plain payloads only: never ipcRenderer,
// never the event. Main validates every payload (main/electron/ipc.ts); nothing here trusts the page.

/** The part of ipcRenderer this file uses; the real one is passed in by index.ts. */
export interface PanelIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function ipcTransport(ipc: PanelIpc): PanelTransport {
  return {
    request: <C extends PanelChannel>(channel: C, request: RequestOf<C>) =>
      ipc.invoke(channel, request) as Promise<ResponseOf<C>>,
    subscribe: <E extends PanelEventName>(name: E, callback: (payload: PanelEvents[E]) => void): Unsubscribe => {
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
    },
  };
}

export function createPanelApi(ipc: PanelIpc): PanelApi {
  return panelClient(ipcTransport(ipc));
}
