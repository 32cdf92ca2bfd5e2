import type {
  PanelChannel,
  PanelEventName,
  PanelEvents,
  ProviderId,
  RequestOf,
  ResponseOf,
  Result,
  SettingsPatch,
  SystemNotice,
  Unsubscribe,
} from './api.ts';
import type { ImageMediaType } from './composer.ts';
import { errorMessage } from './errors.ts';
import type { ApprovalAnswer } from './events.ts';
import type { ElicitAnswer } from './elicitation.ts';
import type { McpChange } from './mcp.ts';
import type { RewindApply, RewindRequest } from './rewind.ts';
import type { ChangesRevertRequest } from './changes.ts';
import type { ReviewChoice } from './review.ts';
import type { SendMode } from './queue.ts';
import type { PermissionMode } from './values.ts';
import type { TodoItem } from './todos.ts';
import type { SessionExportFormat } from './session-export.ts';

// The panel API as the renderer calls it, derived from the request map (api.ts) and one table of
// methods: each method names its channel and how its arguments become the request. One generic
// client turns a transport (Electron IPC in the preload, the web host's socket) into the API, so
// a transport only knows how to send a request and hear an event.

interface MethodSpec<C extends PanelChannel, A extends unknown[]> {
  channel: C;
  request: (...args: A) => RequestOf<C>;
}

const method = <C extends PanelChannel, A extends unknown[]>(
  channel: C,
  request: (...args: A) => RequestOf<C>,
): MethodSpec<C, A> => ({ channel, request });

const nothing = (): undefined => undefined;

export const PANEL_METHODS = {
  info: method('panel:info', nothing),
  send: method('turn:send', (text: string, mentions?: string[], images?: string[], mode?: SendMode) => ({
    text,
    ...(mentions && mentions.length > 0 ? { mentions } : {}),
    ...(images && images.length > 0 ? { images } : {}),
    ...(mode ? { mode } : {}),
  })),
  editQueued: method('queue:edit', (id: string, text: string) => ({ id, text })),
  removeQueued: method('queue:remove', (id: string) => ({ id })),
  moveQueued: method('queue:move', (id: string, to: number) => ({ id, to })),
  /** Send now: a held queue goes out, its first message as the next turn. */
  sendQueued: method('queue:send', nothing),
  holdQueued: method('queue:hold', nothing),
  setTodos: method('todos:set', (todos: TodoItem[]) => ({ todos })),
  approvePlan: method('plan:approve', (callId: string, plan: string, todos: TodoItem[], mode: PermissionMode) => ({
    call_id: callId,
    plan,
    todos,
    mode,
  })),
  keepPlanning: method('plan:keep', (callId: string) => ({ call_id: callId })),
  /** Stops the whole turn (Esc, the composer's stop). */
  stop: method('turn:stop', nothing),
  /** Stops one running call and lets the turn go on (Stop on its card). */
  cancel: method('tool:cancel', (callId: string) => ({ call_id: callId })),
  approve: method('tool:approve', (callId: string, answer: ApprovalAnswer, review?: ReviewChoice) => ({
    call_id: callId,
    answer,
    ...(review ? { review } : {}),
  })),
  toolContent: method('tool:content', (callId: string) => ({ call_id: callId })),
  previewCall: method('tool:preview', (callId: string) => ({ call_id: callId })),
  keepPreview: method('tool:keep-preview', (callId: string) => ({ call_id: callId })),
  listSessions: method('session:list', nothing),
  openSession: method('session:open', (id: string) => ({ id })),
  olderEvents: method('session:page', (id: string, before: number) => ({ id, before })),
  newSession: method('session:new', nothing),
  newSessionAs: method('session:new-as', (agent: string) => ({ agent })),
  listAgents: method('agents:list', nothing),
  deleteSession: method('session:delete', (id: string) => ({ id })),
  exportSession: method('session:export', (id: string, format: SessionExportFormat) => ({ id, format })),
  /** Compacts the open session's context now (the Compact button, `/compact [what to keep]`). */
  compactSession: method('session:compact', (focus?: string) => (focus?.trim() ? { focus: focus.trim() } : {})),
  searchSessions: method('session:search', (query: string) => ({ query })),
  renameSession: method('session:rename', (id: string, title: string) => ({ id, title })),
  sessionGrants: method('session:grants', nothing),
  processList: method('process:list', nothing),
  processOutput: method('process:output', (id: string) => ({ id })),
  processStop: method('process:stop', (id: string) => ({ id })),
  keepRunning: method('process:keep', (callId: string) => ({ call_id: callId })),
  agentTranscript: method('agent:transcript', (parent: string, child: { session: string } | { call_id: string }) => ({
    parent,
    ...child,
  })),
  revokeGrant: method('session:revoke', (rule: string) => ({ rule })),
  notify: method('notify:show', (notice: SystemNotice) => notice),
  getSettings: method('settings:get', nothing),
  updateSettings: method('settings:update', (patch: SettingsPatch) => patch),
  setKey: method('settings:set-key', (provider: ProviderId, key: string | null) => ({ provider, key })),
  openLink: method('link:open', (url: string) => ({ url })),
  previewRewind: method('rewind:preview', (request: RewindRequest) => request),
  applyRewind: method('rewind:apply', (request: RewindApply) => request),
  turnChanges: method('changes:turn', (turnId: string) => ({ turn_id: turnId })),
  revertChanges: method('changes:revert', (request: ChangesRevertRequest) => request),
  userCommands: method('composer:commands', nothing),
  promptHistory: method('history:list', nothing),
  rememberPrompt: method('history:add', (text: string) => ({ text })),
  forgetPrompt: method('history:forget', (text: string) => ({ text })),
  importPrompts: method('history:import', (prompts: string[]) => ({ prompts })),
  findFiles: method('composer:files', (query: string) => ({ query })),
  serverModels: method('models:server', (baseURL: string) => ({ base_url: baseURL })),
  attachImage: method('composer:attach-image', (mediaType: ImageMediaType, data: string) => ({
    media_type: mediaType,
    data,
  })),
  image: method('composer:image', (sha256: string) => ({ sha256 })),
  toolBlob: method('tool:blob', (sha256: string) => ({ sha256 })),
  mcpResource: method('mcp:resource', (server: string, uri: string) => ({ server, uri })),
  readFile: method('file:read', (path: string, offset?: number, limit?: number) => ({
    path,
    ...(offset === undefined ? {} : { offset }),
    ...(limit === undefined ? {} : { limit }),
  })),
  existingFiles: method('file:exists', (paths: string[]) => ({ paths })),
  openFile: method('file:open', (path: string, line?: number) => ({ path, ...(line === undefined ? {} : { line }) })),
  mcpServers: method('mcp:servers', nothing),
  changeMcp: method('mcp:change', (change: McpChange) => change),
  mcpElicitations: method('mcp:elicitations', nothing),
  mcpResources: method('mcp:resources', (query: string) => ({ query })),
  mcpPrompt: method('mcp:prompt', (server: string, name: string, args: Record<string, string>) => ({
    server,
    name,
    arguments: args,
  })),
  answerElicitation: method('mcp:elicit-answer', (answer: ElicitAnswer) => answer),
  hooks: method('hooks:list', nothing),
  approveHooks: method('hooks:approve', (ids: string[]) => ({ ids })),
} as const;

export const PANEL_SUBSCRIPTIONS = {
  onStatus: 'status',
  onSessionChanged: 'session:changed',
  onNotificationClick: 'notify:clicked',
  onElicitations: 'mcp:elicitations',
} as const satisfies Record<string, PanelEventName>;

type Methods = typeof PANEL_METHODS;
type Subscriptions = typeof PANEL_SUBSCRIPTIONS;
export type PanelMethod = keyof Methods;

export type PanelRequestApi = {
  [M in PanelMethod]: (...args: Parameters<Methods[M]['request']>) => Promise<ResponseOf<Methods[M]['channel']>>;
};

export type PanelSubscriptionApi = {
  [S in keyof Subscriptions]: (callback: (payload: PanelEvents[Subscriptions[S]]) => void) => Unsubscribe;
};

/** What the renderer sees as `window.pythia` (or the web-socket client). */
export type PanelApi = PanelRequestApi & PanelSubscriptionApi;

/** Channels whose response is not a `Result`: a failed request to them rejects instead. */
type PlainChannel = { [C in PanelChannel]: ResponseOf<C> extends Result<unknown> ? never : C }[PanelChannel];
const PLAIN_RESPONSE: Record<PlainChannel, true> = { 'panel:info': true };

export function answersWithResult(channel: PanelChannel): boolean {
  return !Object.hasOwn(PLAIN_RESPONSE, channel);
}

/** How one runtime carries requests and events; a failed request rejects. */
export interface PanelTransport {
  request<C extends PanelChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  subscribe<E extends PanelEventName>(event: E, listener: (payload: PanelEvents[E]) => void): Unsubscribe;
}

/**
 * The panel API over one transport. A request the transport fails (a refused IPC call, a lost
 * socket) comes back as `{ ok: false, error }` on every `Result` channel, here and nowhere else.
 * `local` replaces methods this runtime answers itself (a browser page opens its own links).
 */
export function panelClient(transport: PanelTransport, local: Partial<PanelRequestApi> = {}): PanelApi {
  const requests = Object.fromEntries(
    Object.entries(PANEL_METHODS).map(([name, spec]) => {
      const send = (...args: unknown[]): Promise<unknown> => {
        const request = (spec.request as (...args: unknown[]) => RequestOf<PanelChannel>)(...args);
        const sent = transport.request(spec.channel, request);
        if (!answersWithResult(spec.channel)) return sent;
        return sent.catch((error: unknown) => ({ ok: false, error: errorMessage(error) }));
      };
      return [name, local[name as PanelMethod] ?? send];
    }),
  ) as PanelRequestApi;
  const subscriptions = Object.fromEntries(
    Object.entries(PANEL_SUBSCRIPTIONS).map(([name, event]) => [
      name,
      (callback: (payload: unknown) => void) => transport.subscribe(event, callback),
    ]),
  ) as PanelSubscriptionApi;
  return { ...requests, ...subscriptions };
}
