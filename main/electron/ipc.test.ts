import type { BrowserWindow as ElectronWindow, IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PanelHandlers } from '../../protocol/api.ts';
import { PANEL_METHODS } from '../../protocol/panel-client.ts';
import { PanelEventHub } from '../host/panel-events.ts';
import { PANEL_CHANNELS } from '../host/panel-schemas.ts';
import { BrowserWindow, FakeFrame, ipcMain, resetFakeElectron } from '../../test/fake-electron.ts';
import { registerPanelIpc } from './ipc.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

// The handlers record what reaches them: the point is what the IPC edge lets through.
const reached: Array<{ channel: string; request: unknown }> = [];
const handlers = new Proxy({} as PanelHandlers, {
  get: (_target, channel: string) => async (request: unknown) => {
    reached.push({ channel, request });
    return channel === 'panel:info'
      ? { workspace: '/w', session: null, models: [], version: '1' }
      : { ok: true, value: 'answered' };
  },
});

let window: BrowserWindow;
let events: PanelEventHub;
let dispose: () => void;

beforeEach(() => {
  resetFakeElectron();
  reached.length = 0;
  window = new BrowserWindow({});
  events = new PanelEventHub();
  dispose = registerPanelIpc({ window: window as unknown as ElectronWindow, handlers, events });
});

function eventFrom(frame: FakeFrame | null, sender: unknown = window.webContents): IpcMainInvokeEvent {
  return { sender, senderFrame: frame } as unknown as IpcMainInvokeEvent;
}

function invoke(
  channel: string,
  request: unknown,
  event: IpcMainInvokeEvent = eventFrom(window.webContents.mainFrame),
): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel) as
    ((event: IpcMainInvokeEvent, request: unknown) => Promise<unknown>) | undefined;
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve().then(() => handler(event, request));
}

describe('panel IPC', () => {
  it('registers a handler for every channel of the panel API', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...PANEL_CHANNELS].sort());
    // Every request the panel's client can make has a channel, and no channel is left without one.
    const requested = new Set(Object.values(PANEL_METHODS).map((method) => method.channel));
    expect([...PANEL_CHANNELS].sort()).toEqual([...requested].sort());
  });

  it("answers the panel page's main frame", async () => {
    expect(await invoke('turn:send', { text: 'hello' })).toEqual({ ok: true, value: 'answered' });
    expect(reached).toEqual([{ channel: 'turn:send', request: { text: 'hello' } }]);
  });

  it('turns an invalid payload into an error value the handler never sees', async () => {
    const answer = await invoke('tool:approve', { call_id: 'c1', answer: 'always' });
    expect(answer).toMatchObject({
      ok: false,
      error: expect.stringContaining('Invalid request for tool:approve: answer'),
    });
    expect(reached).toEqual([]);
  });

  it("carries a card's cancel with its call id, and refuses one without a call id", async () => {
    expect(await invoke('tool:cancel', { call_id: 'c9' })).toEqual({ ok: true, value: 'answered' });
    expect(await invoke('tool:cancel', { call_id: '' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Invalid request for tool:cancel: call_id'),
    });
    expect(reached).toEqual([{ channel: 'tool:cancel', request: { call_id: 'c9' } }]);
  });

  it('refuses extra fields in a payload', async () => {
    const answer = await invoke('settings:update', { theme: 'dark', keys: { openai: true } });
    expect(answer).toMatchObject({ ok: false });
    expect(reached).toEqual([]);
  });

  it('refuses an update feed chosen by the page', async () => {
    const answer = await invoke('settings:update', { updates_enabled: true, update_feed: 'https://updates.example/' });
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining('update_feed') });
    expect(reached).toEqual([]);
  });

  it('refuses session ids that could name a path', async () => {
    for (const id of ['../../etc/passwd', '/abs', 'a/b', '.hidden', '']) {
      expect(await invoke('session:delete', { id })).toMatchObject({ ok: false });
    }
    expect(reached).toEqual([]);
  });

  it('rejects an invalid payload on a channel whose answer is not a Result', async () => {
    await expect(invoke('panel:info', { sneaky: true })).rejects.toThrow('Invalid request for panel:info');
  });

  it('refuses a request from a subframe', async () => {
    const child = new FakeFrame('app://panel/index.html', { parent: window.webContents.mainFrame, routingId: 2 });
    await expect(invoke('settings:get', undefined, eventFrom(child))).rejects.toThrow('subframe');
    expect(reached).toEqual([]);
  });

  it('refuses a request from a page that is not the panel', async () => {
    window.webContents.mainFrame.url = 'https://evil.example/';
    await expect(invoke('settings:get', undefined, eventFrom(window.webContents.mainFrame))).rejects.toThrow(
      'not the panel',
    );
    expect(reached).toEqual([]);
  });

  it('refuses a request from another web contents', async () => {
    const other = new BrowserWindow({});
    await expect(
      invoke('settings:get', undefined, eventFrom(other.webContents.mainFrame, other.webContents)),
    ).rejects.toThrow('did not come from the panel window');
  });

  it('refuses a request whose frame is gone', async () => {
    await expect(invoke('settings:get', undefined, eventFrom(null))).rejects.toThrow('frame is gone');
  });

  it('forwards panel events to the window with the payload only', () => {
    events.publish({ event: 'status', payload: { type: 'turn_started', turn_id: 't', model: 'demo' } });
    events.publish({
      event: 'session:changed',
      payload: { id: 's', title: '', workspace: '/w', created_at: '', updated_at: '' },
    });
    expect(window.webContents.sent.map(([channel]) => channel)).toEqual(['status', 'session:changed']);
    expect(window.webContents.sent[0]?.[1]).toEqual({ type: 'turn_started', turn_id: 't', model: 'demo' });
  });

  it('sends no events to a window that does not show the panel', () => {
    window.webContents.mainFrame.url = 'https://evil.example/';
    events.publish({ event: 'status', payload: { type: 'turn_started', turn_id: 't', model: 'demo' } });
    window.destroyed = true;
    events.publish({ event: 'status', payload: { type: 'turn_started', turn_id: 'u', model: 'demo' } });
    expect(window.webContents.sent).toEqual([]);
  });

  it('removes every handler and the event subscription when disposed', () => {
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(events.size).toBe(0);
  });
});
