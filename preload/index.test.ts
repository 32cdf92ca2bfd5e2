import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PanelApi } from '../protocol/api.ts';

// The Electron binary cannot run here, so `electron` is the one module replaced: a contextBridge
// that records what is exposed and an ipcRenderer that records invocations and holds listeners.

const exposed = new Map<string, unknown>();
const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
const invoke = vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: undefined }));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => invoke(...args),
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
    },
    removeListener: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(listener);
    },
  },
}));

/** Every member of PanelApi; the type below fails to compile if one is missing or extra. */
const PANEL_API_KEYS = [
  'info',
  'send',
  'stop',
  'cancel',
  'approve',
  'toolContent',
  'listSessions',
  'openSession',
  'olderEvents',
  'newSession',
  'deleteSession',
  'exportSession',
  'compactSession',
  'searchSessions',
  'renameSession',
  'sessionGrants',
  'revokeGrant',
  'notify',
  'getSettings',
  'updateSettings',
  'setKey',
  'openLink',
  'userCommands',
  'findFiles',
  'serverModels',
  'previewRewind',
  'applyRewind',
  'turnChanges',
  'revertChanges',
  'attachImage',
  'image',
  'toolBlob',
  'mcpResource',
  'readFile',
  'existingFiles',
  'openFile',
  'mcpServers',
  'changeMcp',
  'hooks',
  'approveHooks',
  'editQueued',
  'removeQueued',
  'moveQueued',
  'sendQueued',
  'holdQueued',
  'agentTranscript',
  'newSessionAs',
  'listAgents',
  'setTodos',
  'previewCall',
  'keepPreview',
  'processList',
  'processOutput',
  'processStop',
  'keepRunning',
  'approvePlan',
  'keepPlanning',
  'promptHistory',
  'rememberPrompt',
  'forgetPrompt',
  'importPrompts',
  'onStatus',
  'onSessionChanged',
  'onNotificationClick',
  'mcpElicitations',
  'mcpPrompt',
  'mcpResources',
  'answerElicitation',
  'onElicitations',
] as const;
type Missing = Exclude<keyof PanelApi, (typeof PANEL_API_KEYS)[number]>;
type Extra = Exclude<(typeof PANEL_API_KEYS)[number], keyof PanelApi>;
const complete: [Missing, Extra] extends [never, never] ? true : never = true;

function emitFromMain(channel: string, payload: unknown): void {
  const ipcEvent = { sender: { send: () => undefined }, ports: [] };
  for (const listener of listeners.get(channel) ?? []) listener(ipcEvent, payload);
}

async function loadPreload(): Promise<PanelApi> {
  vi.resetModules();
  exposed.clear();
  await import('./index.ts');
  return exposed.get('pythia') as PanelApi;
}

beforeEach(() => {
  listeners.clear();
  invoke.mockClear();
});

describe('preload', () => {
  it('exposes only window.pythia', async () => {
    await loadPreload();
    expect([...exposed.keys()]).toEqual(['pythia']);
  });

  it('exposes exactly the members of PanelApi, all functions', async () => {
    const api = await loadPreload();
    expect(complete).toBe(true);
    expect(Object.keys(api).sort()).toEqual([...PANEL_API_KEYS].sort());
    for (const key of PANEL_API_KEYS) expect(typeof api[key]).toBe('function');
  });

  it('never hands out ipcRenderer or anything that reaches it', async () => {
    const api = await loadPreload();
    for (const value of Object.values(api)) expect(Object.keys(value as object)).toEqual([]);
    expect(JSON.stringify(Object.keys(api))).not.toContain('ipc');
  });

  it('sends each request on its channel with a validated-shape payload', async () => {
    const api = await loadPreload();
    await api.send('hello');
    await api.approve('call-1', 'session');
    await api.toolContent('call-2');
    await api.updateSettings({ theme: 'dark' });
    await api.setKey('openai', null);
    await api.stop();
    await api.cancel('call-3');
    expect(invoke.mock.calls).toEqual([
      ['turn:send', { text: 'hello' }],
      ['tool:approve', { call_id: 'call-1', answer: 'session' }],
      ['tool:content', { call_id: 'call-2' }],
      ['settings:update', { theme: 'dark' }],
      ['settings:set-key', { provider: 'openai', key: null }],
      ['turn:stop', undefined],
      ['tool:cancel', { call_id: 'call-3' }],
    ]);
  });

  it('returns what main answered', async () => {
    const api = await loadPreload();
    invoke.mockResolvedValueOnce({ ok: false, error: 'No such session.' });
    expect(await api.openSession('s1')).toEqual({ ok: false, error: 'No such session.' });
  });

  it('answers a request main refuses with a failure value, and the info request with a rejection', async () => {
    const api = await loadPreload();
    const refusal =
      "Error invoking remote method 'session:list': Error: Refused session:list: the sending frame is gone.";
    invoke.mockRejectedValueOnce(new Error(refusal));
    expect(await api.listSessions()).toEqual({ ok: false, error: refusal });
    invoke.mockRejectedValueOnce(new Error('Refused panel:info.'));
    await expect(api.info()).rejects.toThrow('Refused panel:info.');
  });

  it('gives status callbacks the payload only, never the IPC event', async () => {
    const api = await loadPreload();
    const seen: unknown[][] = [];
    api.onStatus((...args: unknown[]) => seen.push(args));
    emitFromMain('status', { type: 'turn_started', turn_id: 't', model: 'demo' });
    expect(seen).toEqual([[{ type: 'turn_started', turn_id: 't', model: 'demo' }]]);
  });

  it('gives session callbacks the payload only', async () => {
    const api = await loadPreload();
    const seen: unknown[][] = [];
    api.onSessionChanged((...args: unknown[]) => seen.push(args));
    emitFromMain('session:changed', { id: 's1' });
    expect(seen).toEqual([[{ id: 's1' }]]);
  });

  it('stops calling back after unsubscribe, and a second unsubscribe is harmless', async () => {
    const api = await loadPreload();
    const seen: unknown[] = [];
    const unsubscribe = api.onStatus((event) => seen.push(event));
    emitFromMain('status', { type: 'turn_started', turn_id: 'a', model: 'demo' });
    unsubscribe();
    unsubscribe();
    emitFromMain('status', { type: 'turn_started', turn_id: 'b', model: 'demo' });
    expect(seen).toHaveLength(1);
    expect(listeners.get('status')?.size).toBe(0);
  });

  it('keeps other subscriptions when one unsubscribes', async () => {
    const api = await loadPreload();
    const seen: string[] = [];
    const first = api.onStatus(() => seen.push('first'));
    api.onStatus(() => seen.push('second'));
    first();
    emitFromMain('status', { type: 'turn_started', turn_id: 'a', model: 'demo' });
    expect(seen).toEqual(['second']);
  });

  it('refuses a callback that is not a function', async () => {
    const api = await loadPreload();
    expect(() => api.onStatus('alert(1)' as unknown as () => void)).toThrow(TypeError);
  });
});
