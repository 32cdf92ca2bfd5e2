import type { Session } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, FakeSession, resetFakeElectron, type FakeWebContents } from '../../test/fake-electron.ts';
import { createMainWindow, hardenWebContents, lockDownSession, secureWebPreferences } from './window.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

beforeEach(() => resetFakeElectron());

function openWindow(): { window: BrowserWindow; contents: FakeWebContents; offered: string[] } {
  const offered: string[] = [];
  createMainWindow({ preload: '/app/out/preload/index.cjs', openLink: (url) => offered.push(url) });
  const window = BrowserWindow.created[0]!;
  return { window, contents: window.webContents, offered };
}

function navigate(contents: FakeWebContents, url: string): boolean {
  let prevented = false;
  contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
  return prevented;
}

describe('secure window', () => {
  it('isolates, sandboxes and keeps Node out of the renderer', () => {
    const { window } = openWindow();
    expect(window.options['webPreferences']).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('never turns a security preference off by leaving it out', () => {
    const preferences = secureWebPreferences('/p.cjs');
    for (const key of ['contextIsolation', 'sandbox', 'webSecurity'] as const) expect(preferences[key]).toBe(true);
    for (const key of ['nodeIntegration', 'allowRunningInsecureContent', 'experimentalFeatures'] as const)
      expect(preferences[key]).toBe(false);
  });

  it('loads the panel from app://, never from file://', () => {
    const { window } = openWindow();
    expect(window.loaded).toEqual(['app://panel/index.html']);
  });

  it("prevents every navigation, the panel's own origin included", () => {
    const { contents } = openWindow();
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'app://panel/index.html', 'javascript:alert(1)']) {
      expect(navigate(contents, url)).toBe(true);
    }
  });

  it('offers an https: link to the browser when the page tries to navigate to it', () => {
    const { contents, offered } = openWindow();
    navigate(contents, 'https://example.com/docs');
    navigate(contents, 'http://example.com/plain');
    navigate(contents, 'file:///etc/passwd');
    expect(offered).toEqual(['https://example.com/docs']);
  });

  it('denies every new window, offering only https: links to the browser', () => {
    const { contents, offered } = openWindow();
    for (const url of ['https://example.com/', 'about:blank', 'file:///tmp/x', 'smb://host/share']) {
      expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(offered).toEqual(['https://example.com/']);
  });

  it('refuses to attach webviews and redirects', () => {
    const { contents } = openWindow();
    for (const name of ['will-attach-webview', 'will-redirect']) {
      let prevented = false;
      contents.emit(name, { preventDefault: () => (prevented = true) }, {}, {});
      expect(prevented, name).toBe(true);
    }
  });

  it('hardens contents it did not create with a link opener that opens nothing', () => {
    const contents = new BrowserWindow({}).webContents;
    hardenWebContents(contents as never, () => undefined);
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(navigate(contents, 'https://example.com/')).toBe(true);
  });
});

describe('session permissions', () => {
  it('denies every permission request', () => {
    const session = new FakeSession();
    lockDownSession(session as unknown as Session);
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal']) {
      const callback = vi.fn();
      session.requestHandler?.({} as never, permission as never, callback as never, {} as never);
      expect(callback).toHaveBeenCalledWith(false);
    }
  });

  it('answers every permission check with no', () => {
    const session = new FakeSession();
    lockDownSession(session as unknown as Session);
    expect(
      session.checkHandler?.(null as never, 'clipboard-sanitized-write' as never, 'app://panel' as never, {} as never),
    ).toBe(false);
    expect(session.deviceHandler?.({} as never)).toBe(false);
  });

  it('cancels downloads, but the panel’s own Save… and Export… of what it holds ask where to save', () => {
    const session = new FakeSession();
    lockDownSession(session as unknown as Session);
    const download = (url: string) => {
      let prevented = false;
      let dialog: unknown = null;
      const item = {
        getURL: () => url,
        getFilename: () => 'report.tar.gz',
        setSaveDialogOptions: (options: unknown) => (dialog = options),
      };
      session.emit('will-download', { preventDefault: () => (prevented = true) }, item);
      return { prevented, dialog };
    };
    expect(download('https://example.com/file.zip')).toEqual({ prevented: true, dialog: null });
    expect(download('blob:https://example.com/0b6e')).toEqual({ prevented: true, dialog: null });
    expect(download('blob:app://panel/0b6e-41c2')).toEqual({
      prevented: false,
      dialog: { title: 'Save file', defaultPath: 'report.tar.gz' },
    });
  });
});
