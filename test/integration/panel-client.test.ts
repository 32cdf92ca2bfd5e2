import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PanelChannel, PanelHandlers, ResponseOf } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { PANEL_METHODS, PANEL_SUBSCRIPTIONS, type PanelApi, type PanelMethod } from '../../protocol/panel-client.ts';
import { PanelEventHub } from '../../main/host/panel-events.ts';
import { dispatchPanelRequest } from '../../main/host/panel-schemas.ts';
import { startWebHost, type WebHost } from '../../main/host/web/web-host.ts';
import { createPanelApi } from '../../preload/panel-api.ts';
import { createSocketClient } from '../../renderer/transport/socket-client.ts';

// The one generic panel client over both of its real transports: the browser's socket client
// against the real web host, and the preload's client over an IPC that dispatches as
// main/electron/ipc.ts does (validation included). The same method table drives both.

const TOKEN = 'panel-client-token';

/** One call of every request method, with the request each must arrive as. */
const CALLS: { [M in PanelMethod]: { call: (api: PanelApi) => Promise<unknown>; arrives: unknown } } = {
  info: { call: (api) => api.info(), arrives: undefined },
  send: {
    call: (api) => api.send('hello', ['src/a.ts', 'docs/']),
    arrives: { text: 'hello', mentions: ['src/a.ts', 'docs/'] },
  },
  editQueued: { call: (api) => api.editQueued('q1', 'later'), arrives: { id: 'q1', text: 'later' } },
  removeQueued: { call: (api) => api.removeQueued('q2'), arrives: { id: 'q2' } },
  moveQueued: { call: (api) => api.moveQueued('q3', 0), arrives: { id: 'q3', to: 0 } },
  sendQueued: { call: (api) => api.sendQueued(), arrives: undefined },
  holdQueued: { call: (api) => api.holdQueued(), arrives: undefined },
  approvePlan: {
    call: (api) => api.approvePlan('c9', '# Plan', [], 'auto'),
    arrives: { call_id: 'c9', plan: '# Plan', todos: [], mode: 'auto' },
  },
  keepPlanning: { call: (api) => api.keepPlanning('c9'), arrives: { call_id: 'c9' } },
  setTodos: {
    call: (api) => api.setTodos([{ id: 't1', text: 'Read', status: 'done' }]),
    arrives: { todos: [{ id: 't1', text: 'Read', status: 'done' }] },
  },
  stop: { call: (api) => api.stop(), arrives: undefined },
  cancel: { call: (api) => api.cancel('c1'), arrives: { call_id: 'c1' } },
  approve: { call: (api) => api.approve('c2', 'session'), arrives: { call_id: 'c2', answer: 'session' } },
  toolContent: { call: (api) => api.toolContent('c3'), arrives: { call_id: 'c3' } },
  previewCall: { call: (api) => api.previewCall('c4'), arrives: { call_id: 'c4' } },
  keepPreview: { call: (api) => api.keepPreview('c5'), arrives: { call_id: 'c5' } },
  listSessions: { call: (api) => api.listSessions(), arrives: undefined },
  openSession: { call: (api) => api.openSession('s1'), arrives: { id: 's1' } },
  olderEvents: { call: (api) => api.olderEvents('s1', 40), arrives: { id: 's1', before: 40 } },
  newSession: { call: (api) => api.newSession(), arrives: undefined },
  deleteSession: { call: (api) => api.deleteSession('s2'), arrives: { id: 's2' } },
  exportSession: { call: (api) => api.exportSession('s2', 'html'), arrives: { id: 's2', format: 'html' } },
  compactSession: { call: (api) => api.compactSession(' the API design '), arrives: { focus: 'the API design' } },
  searchSessions: { call: (api) => api.searchSessions('needle'), arrives: { query: 'needle' } },
  renameSession: { call: (api) => api.renameSession('s3', 'Named'), arrives: { id: 's3', title: 'Named' } },
  sessionGrants: { call: (api) => api.sessionGrants(), arrives: undefined },
  processList: { call: (api) => api.processList(), arrives: undefined },
  processOutput: { call: (api) => api.processOutput('p1'), arrives: { id: 'p1' } },
  processStop: { call: (api) => api.processStop('p2'), arrives: { id: 'p2' } },
  keepRunning: { call: (api) => api.keepRunning('call-7'), arrives: { call_id: 'call-7' } },
  newSessionAs: { call: (api) => api.newSessionAs('explore'), arrives: { agent: 'explore' } },
  listAgents: { call: (api) => api.listAgents(), arrives: undefined },
  agentTranscript: {
    call: (api) => api.agentTranscript('20250102-030405-a1b2c3', { session: '20250102-030406-d4e5f6' }),
    arrives: { parent: '20250102-030405-a1b2c3', session: '20250102-030406-d4e5f6' },
  },
  revokeGrant: { call: (api) => api.revokeGrant('write(a.ts)'), arrives: { rule: 'write(a.ts)' } },
  notify: {
    call: (api) => api.notify({ title: 'T', body: 'B', tag: 'turn:t1', urgent: false }),
    arrives: { title: 'T', body: 'B', tag: 'turn:t1', urgent: false },
  },
  getSettings: { call: (api) => api.getSettings(), arrives: undefined },
  updateSettings: { call: (api) => api.updateSettings({ theme: 'dark' }), arrives: { theme: 'dark' } },
  setKey: { call: (api) => api.setKey('openai', null), arrives: { provider: 'openai', key: null } },
  openLink: { call: (api) => api.openLink('https://example.com/'), arrives: { url: 'https://example.com/' } },
  previewRewind: {
    call: (api) => api.previewRewind({ target: 'call_1', mode: 'both' }),
    arrives: { target: 'call_1', mode: 'both' },
  },
  applyRewind: {
    call: (api) => api.applyRewind({ target: 'call_1', mode: 'code', choices: { 'a.txt': 'keep' } }),
    arrives: { target: 'call_1', mode: 'code', choices: { 'a.txt': 'keep' } },
  },
  turnChanges: { call: (api) => api.turnChanges('turn_1'), arrives: { turn_id: 'turn_1' } },
  revertChanges: {
    call: (api) => api.revertChanges({ turn_id: 'turn_1', paths: ['a.txt'], choices: { 'a.txt': 'take' } }),
    arrives: { turn_id: 'turn_1', paths: ['a.txt'], choices: { 'a.txt': 'take' } },
  },
  userCommands: { call: (api) => api.userCommands(), arrives: undefined },
  promptHistory: { call: (api) => api.promptHistory(), arrives: undefined },
  rememberPrompt: { call: (api) => api.rememberPrompt('Fix the build'), arrives: { text: 'Fix the build' } },
  forgetPrompt: { call: (api) => api.forgetPrompt('Fix the build'), arrives: { text: 'Fix the build' } },
  importPrompts: { call: (api) => api.importPrompts(['Fix the build']), arrives: { prompts: ['Fix the build'] } },
  findFiles: { call: (api) => api.findFiles('src/ma'), arrives: { query: 'src/ma' } },
  serverModels: {
    call: (api) => api.serverModels('http://127.0.0.1:11434/v1'),
    arrives: { base_url: 'http://127.0.0.1:11434/v1' },
  },
  attachImage: {
    call: (api) => api.attachImage('image/png', 'iVBORw0K'),
    arrives: { media_type: 'image/png', data: 'iVBORw0K' },
  },
  image: { call: (api) => api.image('ab'.repeat(32)), arrives: { sha256: 'ab'.repeat(32) } },
  toolBlob: { call: (api) => api.toolBlob('cd'.repeat(32)), arrives: { sha256: 'cd'.repeat(32) } },
  mcpResource: {
    call: (api) => api.mcpResource('everything', 'demo://resource/dynamic/blob/1'),
    arrives: { server: 'everything', uri: 'demo://resource/dynamic/blob/1' },
  },
  readFile: { call: (api) => api.readFile('src/a.ts', 10, 40), arrives: { path: 'src/a.ts', offset: 10, limit: 40 } },
  existingFiles: { call: (api) => api.existingFiles(['src/a.ts', 'b.md']), arrives: { paths: ['src/a.ts', 'b.md'] } },
  openFile: { call: (api) => api.openFile('src/a.ts', 3), arrives: { path: 'src/a.ts', line: 3 } },
  mcpServers: { call: (api) => api.mcpServers(), arrives: undefined },
  changeMcp: {
    call: (api) => api.changeMcp({ action: 'enable', name: 'docs', enabled: false }),
    arrives: { action: 'enable', name: 'docs', enabled: false },
  },
  hooks: { call: (api) => api.hooks(), arrives: undefined },
  mcpElicitations: { call: (api) => api.mcpElicitations(), arrives: undefined },
  mcpResources: { call: (api) => api.mcpResources('change'), arrives: { query: 'change' } },
  mcpPrompt: {
    call: (api) => api.mcpPrompt('fixture', 'release-notes', { version: '2.4.0' }),
    arrives: { server: 'fixture', name: 'release-notes', arguments: { version: '2.4.0' } },
  },
  answerElicitation: {
    call: (api) => api.answerElicitation({ id: 'form-1', action: 'accept', content: { name: 'v2', count: 3 } }),
    arrives: { id: 'form-1', action: 'accept', content: { name: 'v2', count: 3 } },
  },
  approveHooks: {
    call: (api) => api.approveHooks(['0123456789abcdef01234567']),
    arrives: { ids: ['0123456789abcdef01234567'] },
  },
};

const INFO = { workspace: '/w', session: null, models: ['demo'], tools: [], version: '0.0.0' };

let received: { channel: string; request: unknown }[];
let failing: Set<string>;
/** Answers every channel: the info, a success, or (for channels in `failing`) a handler that throws. */
const handlers = new Proxy({} as PanelHandlers, {
  get:
    (_target, channel: string) =>
    async (request: unknown): Promise<unknown> => {
      received.push({ channel, request });
      if (failing.has(channel)) throw new Error(`the ${channel} handler broke`);
      return channel === 'panel:info' ? INFO : { ok: true, value: `${channel} done` };
    },
});

let folder: string;
let events: PanelEventHub;
let host: WebHost;
let socketApi: ReturnType<typeof createSocketClient>;

beforeEach(async () => {
  received = [];
  failing = new Set();
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-client-'));
  await writeFile(path.join(folder, 'index.html'), '<!doctype html><title>panel</title>');
  events = new PanelEventHub();
  host = await startWebHost({ handlers, events, rendererDir: folder, token: TOKEN });
  socketApi = createSocketClient({ url: `ws://127.0.0.1:${host.port}/api?token=${TOKEN}`, backoff: () => 20 });
});

afterEach(async () => {
  socketApi.close();
  await host.close();
  await rm(folder, { recursive: true, force: true });
});

/** The preload's client over an IPC whose handlers validate and dispatch like main/electron/ipc.ts. */
function preloadApi(): PanelApi {
  return createPanelApi({
    invoke: (channel, payload) => dispatchPanelRequest(handlers, channel as PanelChannel, payload),
    on: () => undefined,
    removeListener: () => undefined,
  });
}

const requestMethods = Object.keys(PANEL_METHODS) as PanelMethod[];

describe('the generic panel client', () => {
  it('serves every method of the table and every subscription, over both transports', () => {
    for (const api of [socketApi, preloadApi()]) {
      for (const name of [...requestMethods, ...Object.keys(PANEL_SUBSCRIPTIONS)]) {
        expect(typeof api[name as keyof PanelApi]).toBe('function');
      }
    }
  });

  it('sends each method on its channel with its request through the real web host', async () => {
    // openLink is answered by the page itself in a browser; every other method reaches the host.
    const viaHost = requestMethods.filter((name) => name !== 'openLink');
    for (const name of viaHost) {
      const answer = await CALLS[name].call(socketApi);
      expect(answer).toEqual(name === 'info' ? INFO : { ok: true, value: `${PANEL_METHODS[name].channel} done` });
    }
    expect(received).toEqual(
      viaHost.map((name) => ({ channel: PANEL_METHODS[name].channel, request: CALLS[name].arrives })),
    );
  });

  it('sends each method on its channel with a request that passes main’s validation, through the preload', async () => {
    const api = preloadApi();
    for (const name of requestMethods) await CALLS[name].call(api);
    expect(received).toEqual(
      requestMethods.map((name) => ({ channel: PANEL_METHODS[name].channel, request: CALLS[name].arrives })),
    );
  });

  it('answers a request that fails on its way with a failure value once, naming what failed', async () => {
    failing.add('session:open');
    const viaSocket = await socketApi.openSession('s1');
    const viaPreload = await preloadApi().openSession('s1');
    // The handler's error, wrapped by the edge once; never a rejection, never wrapped twice.
    expect(viaSocket).toEqual({ ok: false, error: 'session:open failed: the session:open handler broke' });
    expect(viaPreload).toEqual(viaSocket);
  });

  it('turns a lost socket into a failure value on Result channels and a rejection for info', async () => {
    await expect(socketApi.info()).resolves.toEqual(INFO);
    await host.close();
    const settled: ResponseOf<'session:list'> = await socketApi.listSessions();
    expect(settled.ok).toBe(false);
    expect(settled.ok ? '' : settled.error).toMatch(/^The connection to the panel host was lost/);
    await expect(socketApi.info()).rejects.toThrow(/connection to the panel host was lost/);
  });

  it('delivers a status event from the host to a socket subscriber', async () => {
    const seen: StatusEvent[] = [];
    socketApi.onStatus((event) => seen.push(event));
    await socketApi.info(); // Connected and subscribed on the host's side.
    const event: StatusEvent = { type: 'turn_started', turn_id: 't1', model: 'demo' };
    events.publish({ event: 'status', payload: event });
    await expect.poll(() => seen).toEqual([event]);
  });
});
