import { BrowserWindow, type Session, type WebContents, type WebPreferences } from 'electron';
import { PANEL_BLOB_PREFIX, PANEL_URL } from './app-protocol.ts';

// The panel window and the rules every web contents lives by (Electron's security checklist):
// isolated, sandboxed, no Node; no navigation, no new windows, no webviews, no permissions.

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export type LinkOpener = (url: string) => unknown;

/** Deny every way out of the panel; https: links are offered to the browser instead. */
export function hardenWebContents(contents: WebContents, openLink: LinkOpener): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (url.startsWith('https:')) void openLink(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https:')) void openLink(url);
    return { action: 'deny' };
  });
}

/**
 * The panel asks for no permission (camera, notifications, clipboard read, …), so none is granted.
 * Downloads are refused, except the panel's own files (a blob: URL it made of what it holds: an MCP
 * result's binary resource, a session's Export…): those ask where to save with the system's dialog.
 */
export function lockDownSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event, item) => {
    if (!item.getURL().startsWith(PANEL_BLOB_PREFIX)) {
      event.preventDefault();
      return;
    }
    item.setSaveDialogOptions({ title: 'Save file', defaultPath: item.getFilename() });
  });
}

export function createMainWindow(options: { preload: string; openLink: LinkOpener; title?: string }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 860,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: options.title ?? 'ÆtherCodex',
    webPreferences: secureWebPreferences(options.preload),
  });
  hardenWebContents(window.webContents, options.openLink);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(PANEL_URL);
  return window;
}
