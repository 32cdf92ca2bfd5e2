import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { PanelHandlers } from '../../protocol/api.ts';
import type { PanelEventSource } from '../host/panel-events.ts';
import { dispatchPanelRequest, PANEL_CHANNELS } from '../host/panel-schemas.ts';
import { isPanelUrl } from './app-protocol.ts';

// Every panel channel as an ipcMain handler. A request is answered only when it comes from the
// panel window's own main frame showing app://panel/, and only after its payload validates.

/** Why a sender may not use the panel API, or null when it may. */
export function senderRefusal(event: IpcMainInvokeEvent, window: BrowserWindow): string | null {
  if (window.isDestroyed()) return 'the panel window is closed';
  const contents = window.webContents;
  if (event.sender !== contents) return 'the request did not come from the panel window';
  const frame = event.senderFrame;
  if (frame === null) return 'the sending frame is gone';
  const main = contents.mainFrame;
  if (frame.parent !== null || frame.processId !== main.processId || frame.routingId !== main.routingId) {
    return 'the request came from a subframe';
  }
  if (!isPanelUrl(frame.url)) return `the sending page is not the panel (${frame.url.slice(0, 100)})`;
  return null;
}

export function registerPanelIpc(options: {
  window: BrowserWindow;
  handlers: PanelHandlers;
  events: PanelEventSource;
}): () => void {
  const { window, handlers, events } = options;
  for (const channel of PANEL_CHANNELS) {
    ipcMain.handle(channel, (event, raw: unknown) => {
      const refusal = senderRefusal(event, window);
      if (refusal) throw new Error(`Refused ${channel}: ${refusal}.`);
      return dispatchPanelRequest(handlers, channel, raw);
    });
  }
  const unsubscribe = events.subscribe((message) => {
    if (window.isDestroyed()) return;
    const contents = window.webContents;
    // Events go only to the panel page; a window that somehow shows anything else hears nothing.
    if (!isPanelUrl(contents.mainFrame.url)) return;
    contents.send(message.event, message.payload);
  });
  return () => {
    for (const channel of PANEL_CHANNELS) ipcMain.removeHandler(channel);
    unsubscribe();
  };
}
