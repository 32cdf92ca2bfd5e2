import type { CommandPreviewView } from '../protocol/sandbox.ts';
import { createContext, useContext } from 'react';
import type {
  AgentChoice,
  PermissionMode,
  ProviderId,
  Result,
  SessionMatch,
  SessionSummary,
  Settings,
  SettingsPatch,
  ToolContent,
} from '../protocol/api.ts';
import type { RewindApply, RewindDone, RewindPreview, RewindRequest } from '../protocol/rewind.ts';
import type { ChangesRevertDone, ChangesRevertRequest, TurnChanges } from '../protocol/changes.ts';
import type { FileMatches, ImageMediaType, ImageRef, McpResourceMatch, UserCommandList } from '../protocol/composer.ts';
import type { FileView } from '../protocol/files.ts';
import type { McpChange, McpScreen } from '../protocol/mcp.ts';
import type { ElicitAnswer, ElicitationView } from '../protocol/elicitation.ts';
import type { HooksScreen } from '../protocol/hooks.ts';
import type { ServerModelChoice } from '../protocol/models.ts';
import type { ApprovalAnswer, StatusEvent } from '../protocol/events.ts';
import type { ReviewChoice } from '../protocol/review.ts';
import type { SendMode } from '../protocol/queue.ts';
import type { TodoItem } from '../protocol/todos.ts';
import type { ProcessInfo, ProcessView } from '../protocol/processes.ts';
import type { SessionExportFormat } from '../protocol/session-export.ts';
import { CYCLED_PERMISSION_MODES, REASONING_EFFORTS } from '../protocol/values.ts';
import { saveText } from './cards/save-bytes.ts';
import type { Bridge } from './transport/bridge.ts';
import { loadOlderEvents, openSession, refreshSessions } from './transport/connect.ts';
import { revealCall } from './transcript/reveal-row.ts';
import type { PanelStore } from './store/store.ts';
import { transcriptMarkdown } from './transcript/markdown.ts';

// What the person can do, as plain functions over the bridge and the store. Components reach them
// through a context, so a rendered card in a test gets its own.

export interface PanelActions {
  /** `mentions`: workspace paths picked with `@` (a folder ends in `/`); `images`: sha256 of attached images. */
  /** `mode` while a turn runs: `steer` (Enter) enters it at its next safe point, `queue` (Alt+Enter) waits for its end. */
  send(text: string, mentions?: string[], images?: string[], mode?: SendMode): Promise<boolean>;
  /** The waiting messages: a new text, removal, a new place, Send now, Hold. False when refused (the banner says why). */
  editQueued(id: string, text: string): Promise<boolean>;
  removeQueued(id: string): Promise<boolean>;
  moveQueued(id: string, to: number): Promise<boolean>;
  sendQueued(): Promise<boolean>;
  holdQueued(): Promise<boolean>;
  /** The person's todo list (ticked, added to, items removed); false when refused (the banner says why). */
  setTodos(todos: TodoItem[]): Promise<boolean>;
  /** Approve and start a proposed plan in `mode`; false when refused (the banner says why). */
  approvePlan(callId: string, plan: string, todos: TodoItem[], mode: PermissionMode): Promise<boolean>;
  /** Keep planning on a proposed plan: its card is answered for good; false when refused (the banner says why). */
  keepPlanning(callId: string): Promise<boolean>;
  /** Stops the whole turn (Esc, the composer's stop button). */
  stop(): Promise<void>;
  /** Stops one running call (Stop on its card); the turn goes on. False when it failed (the banner says why). */
  cancel(callId: string): Promise<boolean>;
  /** False when the answer did not reach the gate (the buttons come back). `review`: a write's hunks as chosen. */
  approve(callId: string, answer: ApprovalAnswer, review?: ReviewChoice): Promise<boolean>;
  /** Preview on a command's approval: what it would change, run over a copy in the sandbox. */
  previewCall(callId: string): Promise<Result<CommandPreviewView>>;
  /** Keep the preview's result: false when refused (the banner says why). */
  keepPreview(callId: string): Promise<boolean>;
  toolContent(callId: string): Promise<Result<ToolContent>>;
  /** The open session's background processes now (the Processes strip); a failure reads as none. */
  processes(): Promise<ProcessInfo[]>;
  processOutput(id: string): Promise<Result<ProcessView>>;
  /** Stops one and everything it started; false when it failed (the banner says why). */
  stopProcess(id: string): Promise<boolean>;
  /** Moves a running exec call's command to the background (its card's Keep running). */
  keepRunning(callId: string): Promise<boolean>;
  /** The events of the child session an `agent` call of the shown session started (its card's transcript): by its id, or by the call's. */
  agentTranscript(child: { session: string } | { call_id: string }): Promise<Result<StatusEvent[]>>;
  /** Fetches the session list again: sessions written by the CLI or another window appear. */
  refreshSessions(): Promise<void>;
  openSession(id: string): Promise<void>;
  /** Shows an agent's session read-only: nothing of the live session is closed, so nothing is asked first. */
  openAgentSession(id: string): Promise<void>;
  /** Opens session `parent` and shows the card of its `agent` call `callId`, loading older pages until one holds it. */
  showAgentCard(parent: string, callId: string): Promise<void>;
  /** The next older page of a long session, when the person scrolls up to its start. */
  loadOlderEvents(): Promise<void>;
  /** `agent`: the new session runs as that agent. */
  newSession(agent?: string): Promise<void>;
  /** The agents a session can run as; null when they could not be read. */
  listAgents(): Promise<AgentChoice[] | null>;
  deleteSession(id: string): Promise<void>;
  /** Sessions whose name or messages hold `query`; null when the search failed (the banner says why). */
  searchSessions(query: string): Promise<SessionMatch[] | null>;
  /** Names a session (a blank name goes back to its first message); false when it failed. */
  renameSession(id: string, title: string): Promise<boolean>;
  /**
   * Saves a session as Markdown or an HTML page, its secrets removed: a download in a browser, the
   * save dialog in the desktop app. False when it failed (the banner says why).
   */
  exportSession(id: string, format: SessionExportFormat): Promise<boolean>;
  /** The rules "Always for this session" allowed in the open session; null when the request failed. */
  sessionGrants(): Promise<string[] | null>;
  /** Takes one back; the rules left, or null when it failed. */
  revokeGrant(rule: string): Promise<string[] | null>;
  updateSettings(patch: SettingsPatch): Promise<void>;
  /** Fetches the settings again (settings.json fixed by hand, say); a failure goes to the banner. */
  reloadSettings(): Promise<void>;
  /** Selects the model for the next turns; a refusal (no key, server down) is returned, the old model stays. */
  switchModel(model: string): Promise<Result<Settings>>;
  setKey(provider: ProviderId, key: string | null): Promise<Result<Settings>>;
  cycleEffort(): Promise<void>;
  /** The composer's mode button: ask → plan → auto → ask (another mode goes to ask). */
  cyclePermissionMode(): Promise<void>;
  openLink(url: string): Promise<void>;
  /** What a rewind would change; the dialog shows a failure itself. */
  previewRewind(request: RewindRequest): Promise<Result<RewindPreview>>;
  /** The files a finished turn changed (the Changes card); the error is the card's to show. */
  turnChanges(turnId: string): Promise<Result<TurnChanges>>;
  /** Reverts some or all of a turn's files; conflicts come back unresolved for the card to ask about. */
  revertChanges(request: ChangesRevertRequest): Promise<Result<ChangesRevertDone>>;
  /** Rewinds; the dialog shows a failure itself. The sessions list is fetched again (a fork is new). */
  applyRewind(request: RewindApply): Promise<Result<RewindDone>>;
  copyTranscript(): Promise<boolean>;
  /** The person's slash commands; a failure is reported and leaves the panel's commands only. */
  userCommands(): Promise<UserCommandList>;
  /** This workspace's prompts, newest last (kept by the host); null when they cannot be had (the banner says why). */
  promptHistory(): Promise<string[] | null>;
  /** Remembers a prompt sent; the history after it, or null when it could not be saved (the banner says why). */
  rememberPrompt(text: string): Promise<string[] | null>;
  /** Forgets a prompt on disk too; the history after it, or null (the banner says why). */
  forgetPrompt(text: string): Promise<string[] | null>;
  /** Hands the host the prompts an older version kept in the page's storage; the history after it, or null. */
  importPrompts(prompts: string[]): Promise<string[] | null>;
  /** Fuzzy matches for `@`; null when the request failed (the banner says why). */
  findFiles(query: string): Promise<FileMatches | null>;
  /** The models an OpenAI-compatible server offers; the error says why there are none. */
  serverModels(baseURL: string): Promise<Result<ServerModelChoice[]>>;
  /** Compacts the open session's model context now; `focus`: what the summary must keep. False when it did not. */
  compact(focus?: string): Promise<boolean>;
  /** Hands a pasted or dropped image (base64) to the panel for the next message; the error is the caller's to show. */
  attachImage(mediaType: ImageMediaType, data: string): Promise<Result<ImageRef>>;
  /** One image of the open session, for its thumbnail; null when it cannot be had. */
  image(sha256: string): Promise<{ media_type: ImageMediaType; data: string } | null>;
  /** The bytes of an MCP result's binary resource (base64), for Save…; the error is the caller's to show. */
  toolBlob(sha256: string): Promise<Result<{ data: string }>>;
  /** A resource an MCP server offers (a resource link), for Save…; the error is the caller's to show. */
  mcpResource(server: string, uri: string): Promise<Result<{ data: string; mime_type?: string }>>;
  /** The MCP servers screen, after `change` when one is given; a failure is the screen's to show. */
  mcpServers(change?: McpChange): Promise<Result<McpScreen>>;
  /** The running MCP servers' resources matching `query`, for `@`; empty when none can be had. */
  mcpResources(query: string): Promise<McpResourceMatch[]>;
  /** An MCP server's prompt with its arguments as a message's text; the error is the caller's to show. */
  mcpPrompt(server: string, name: string, args: Record<string, string>): Promise<Result<{ text: string }>>;
  /** The forms MCP servers wait on (elicitation); a failure is the caller's to show. */
  mcpForms(): Promise<Result<ElicitationView[]>>;
  /** The person's answer to one; a refusal (content the form does not take) is the form's to show. */
  answerMcpForm(answer: ElicitAnswer): Promise<Result<void>>;
  /** Called with the waiting forms whenever one comes or goes. */
  onMcpForms(callback: (forms: ElicitationView[]) => void): () => void;
  /** The workspace's hooks, after approving `ids` when given; a failure is the section's to show. */
  hooks(approve?: string[]): Promise<Result<HooksScreen>>;
  /** A page of a workspace file as it is now (the file viewer, a diff's folded lines); the error is the caller's to show. */
  readFile(path: string, offset?: number, limit?: number): Promise<Result<FileView>>;
  /** Which of these paths are workspace files; null when the host could not say. */
  existingFiles(paths: string[]): Promise<string[] | null>;
  /** Opens a file link: the person's editor when the desktop app is set to, else the panel's viewer at `line`. */
  openFile(path: string, line?: number): Promise<void>;
}

export function createActions(api: Bridge, store: PanelStore, clipboard?: Pick<Clipboard, 'writeText'>): PanelActions {
  const state = () => store.getState();
  const report = (result: Result<unknown>): boolean => {
    if (!result.ok) state().showError(result.error);
    return result.ok;
  };
  /** A failure of a request about the shown session: its banner goes once another session is shown. */
  const reportAbout = (result: Result<unknown>, about: string): boolean => {
    if (!result.ok) state().showError(result.error, about);
    return result.ok;
  };
  const shown = (): string => state().session?.id ?? '';
  // A session shown read-only runs no processes here.
  const leaveProcesses = (what: string): Promise<boolean> =>
    state().viewOnly ? Promise.resolve(true) : confirmLeavingProcesses(api, what);

  const reloadSettings = async (): Promise<void> => {
    const settings = await api.getSettings();
    if (report(settings) && settings.ok) state().setSettings(settings.value);
  };

  const updateSettings = async (patch: SettingsPatch): Promise<void> => {
    const updated = await api.updateSettings(patch);
    if (updated.ok) {
      state().setSettings(updated.value);
      return;
    }
    // A change refused because settings.json cannot be used: its own banner says so, and stays.
    const settings = await api.getSettings();
    if (settings.ok) state().setSettings(settings.value);
    if (!settings.ok || settings.value.file_problems?.unreadable === undefined) state().showError(updated.error);
  };

  return {
    send: async (text, mentions, images, mode) => {
      const about = shown();
      const sent = reportAbout(await api.send(text, mentions, images, mode), about);
      // Sending is the person asking to see what comes next, wherever they had scrolled to.
      if (sent) state().requestJumpToLatest();
      return sent;
    },
    editQueued: async (id, text) => reportAbout(await api.editQueued(id, text), shown()),
    removeQueued: async (id) => reportAbout(await api.removeQueued(id), shown()),
    moveQueued: async (id, to) => reportAbout(await api.moveQueued(id, to), shown()),
    sendQueued: async () => reportAbout(await api.sendQueued(), shown()),
    holdQueued: async () => reportAbout(await api.holdQueued(), shown()),
    setTodos: async (todos) => reportAbout(await api.setTodos(todos), shown()),
    keepPlanning: async (callId) => reportAbout(await api.keepPlanning(callId), shown()),
    approvePlan: async (callId, plan, todos, mode) => {
      const about = shown();
      const started = reportAbout(await api.approvePlan(callId, plan, todos, mode), about);
      if (started) {
        // The mode changed with the approval: the footer and settings show it.
        const settings = await api.getSettings();
        if (settings.ok) state().setSettings(settings.value);
        state().requestJumpToLatest();
      }
      return started;
    },
    stop: async () => {
      const about = shown();
      reportAbout(await api.stop(), about);
    },
    cancel: async (callId) => {
      const about = shown();
      return reportAbout(await api.cancel(callId), about);
    },
    approve: async (callId, answer, review) => {
      const about = shown();
      return reportAbout(await api.approve(callId, answer, review), about);
    },
    toolContent: (callId) => api.toolContent(callId),
    previewCall: (callId) => api.previewCall(callId),
    keepPreview: async (callId) => {
      const about = shown();
      return reportAbout(await api.keepPreview(callId), about);
    },
    processes: async () => {
      const listed = await api.processList();
      return listed.ok ? listed.value : [];
    },
    processOutput: (id) => api.processOutput(id),
    stopProcess: async (id) => reportAbout(await api.processStop(id), shown()),
    keepRunning: async (callId) => reportAbout(await api.keepRunning(callId), shown()),
    agentTranscript: async (child) => {
      const parent = state().session?.id;
      if (!parent) return { ok: false, error: 'No session is shown, so its agents cannot be read.' };
      return api.agentTranscript(parent, child);
    },
    loadOlderEvents: () => loadOlderEvents(api, store),
    openSession: async (id) => {
      if (id !== state().session?.id && !(await leaveProcesses('Opening another session'))) return;
      if (await openSession(api, store, id)) state().setSessionsOpen(false);
    },
    openAgentSession: async (id) => {
      if (await openSession(api, store, id)) state().setSessionsOpen(false);
    },
    showAgentCard: async (parent, callId) => {
      if (!(await openSession(api, store, parent))) return;
      if (!(await revealCall(store, () => loadOlderEvents(api, store), callId)))
        state().showError(`The agent call ${callId} is not in this session's transcript any more.`, parent);
    },
    refreshSessions: () => refreshSessions(api, store),
    // The menu is left out when they cannot be read: the session list itself still works.
    listAgents: async () => {
      const listed = await api.listAgents();
      return listed.ok ? listed.value : null;
    },
    newSession: async (agent) => {
      if (!(await leaveProcesses('A new session'))) return;
      const created = agent ? await api.newSessionAs(agent) : await api.newSession();
      if (report(created) && created.ok) {
        state().clearTranscript();
        state().setSession(created.value);
        state().setSessionsOpen(false);
      }
      await refreshSessions(api, store);
    },
    deleteSession: async (id) => {
      if (id === state().session?.id && !(await leaveProcesses('Deleting this session'))) return;
      if (report(await api.deleteSession(id)) && state().session?.id === id) {
        state().clearTranscript();
        state().setSession(null);
      }
      // Also after a failure: the session may have gone already (deleted from another window).
      await refreshSessions(api, store);
    },
    searchSessions: async (query) => {
      const found = await api.searchSessions(query);
      return report(found) && found.ok ? found.value : null;
    },
    renameSession: async (id, title) => {
      const renamed = await api.renameSession(id, title);
      if (!report(renamed) || !renamed.ok) return false;
      if (state().session?.id === id) state().setSession(renamed.value satisfies SessionSummary);
      await refreshSessions(api, store);
      return true;
    },
    exportSession: async (id, format) => {
      const exported = await api.exportSession(id, format);
      if (!report(exported) || !exported.ok) return false;
      saveText(exported.value.text, exported.value.mime, exported.value.name);
      return true;
    },
    sessionGrants: async () => {
      const grants = await api.sessionGrants();
      return report(grants) && grants.ok ? grants.value : null;
    },
    revokeGrant: async (rule) => {
      const left = await api.revokeGrant(rule);
      return report(left) && left.ok ? left.value : null;
    },
    updateSettings,
    reloadSettings,
    switchModel: async (model) => {
      const updated = await api.updateSettings({ model });
      if (updated.ok) state().setSettings(updated.value);
      return updated;
    },
    setKey: async (provider, key) => {
      const updated = await api.setKey(provider, key);
      if (updated.ok) state().setSettings(updated.value);
      return updated;
    },
    cycleEffort: async () => {
      const current = state().settings?.effort ?? 'medium';
      const next = REASONING_EFFORTS[(REASONING_EFFORTS.indexOf(current) + 1) % REASONING_EFFORTS.length] ?? 'medium';
      await updateSettings({ effort: next });
    },
    cyclePermissionMode: async () => {
      const modes: readonly PermissionMode[] = CYCLED_PERMISSION_MODES;
      const current = state().settings?.permission_mode ?? 'ask';
      const next = modes[(modes.indexOf(current) + 1) % modes.length] ?? 'ask';
      await updateSettings({ permission_mode: next });
    },
    openLink: async (url) => void report(await api.openLink(url)),
    previewRewind: (request) => api.previewRewind(request),
    turnChanges: (turnId) => api.turnChanges(turnId),
    revertChanges: (request) => api.revertChanges(request),
    applyRewind: async (request) => {
      const done = await api.applyRewind(request);
      if (done.ok && done.value.fork) await refreshSessions(api, store);
      return done;
    },
    copyTranscript: async () => copyText(transcriptMarkdown(state().transcript), clipboard),
    compact: async (focus) => {
      // A compaction that was tried and failed has its card; a refusal (no session, a turn running) the banner.
      const about = shown();
      const result = await api.compactSession(focus);
      return reportAbout(result, about) && result.ok && result.value.type === 'compaction';
    },
    userCommands: async () => {
      const listed = await api.userCommands();
      return report(listed) && listed.ok ? listed.value : { commands: [], problems: [] };
    },
    promptHistory: async () => {
      const listed = await api.promptHistory();
      return report(listed) && listed.ok ? listed.value : null;
    },
    rememberPrompt: async (text) => {
      const saved = await api.rememberPrompt(text);
      return report(saved) && saved.ok ? saved.value : null;
    },
    forgetPrompt: async (text) => {
      const saved = await api.forgetPrompt(text);
      return report(saved) && saved.ok ? saved.value : null;
    },
    importPrompts: async (prompts) => {
      const saved = await api.importPrompts(prompts);
      return report(saved) && saved.ok ? saved.value : null;
    },
    findFiles: async (query) => {
      const found = await api.findFiles(query);
      return report(found) && found.ok ? found.value : null;
    },
    serverModels: (baseURL) => api.serverModels(baseURL),
    attachImage: (mediaType, data) => api.attachImage(mediaType, data),
    image: async (sha256) => {
      const image = await api.image(sha256);
      return image.ok ? image.value : null;
    },
    toolBlob: (sha256) => api.toolBlob(sha256),
    mcpResource: (server, uri) => api.mcpResource(server, uri),
    mcpServers: (change) => (change ? api.changeMcp(change) : api.mcpServers()),
    mcpPrompt: (server, name, args) => api.mcpPrompt(server, name, args),
    mcpResources: async (query) => {
      const found = await api.mcpResources(query);
      return found.ok ? found.value : [];
    },
    mcpForms: () => api.mcpElicitations(),
    answerMcpForm: (answer) => api.answerElicitation(answer),
    onMcpForms: (callback) => api.onElicitations(callback),
    hooks: (approve) => (approve ? api.approveHooks(approve) : api.hooks()),
    readFile: (path, offset, limit) => api.readFile(path, offset, limit),
    existingFiles: async (paths) => {
      const found = await api.existingFiles(paths);
      return found.ok ? found.value : null;
    },
    openFile: async (path, line) => {
      const about = shown();
      const opened = await api.openFile(path, line);
      if (reportAbout(opened, about) && opened.ok && opened.value === 'viewer')
        state().openFileViewer({ path, ...(line === undefined ? {} : { line }) });
    },
  };
}

/** Puts text on the clipboard: the clipboard API, else a selection copied inside the same click. */
export async function copyText(text: string, clipboard?: Pick<Clipboard, 'writeText'>): Promise<boolean> {
  const target = clipboard ?? globalThis.navigator?.clipboard;
  try {
    if (!target) throw new Error('no clipboard');
    await target.writeText(text);
    return true;
  } catch {
    return copyWithSelection(text);
  }
}

/**
 * The clipboard API can be refused (a shell that denies every permission, an insecure origin);
 * copying a selection inside the click that asked for it still works there.
 */
function copyWithSelection(text: string): boolean {
  if (typeof document === 'undefined') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Closing the live session stops its background processes: the person is asked first when any run.
 * True when none run or they said go on.
 */
async function confirmLeavingProcesses(api: Bridge, what: string): Promise<boolean> {
  let running: ProcessInfo[];
  try {
    const listed = await api.processList();
    running = listed.ok ? listed.value.filter((process) => process.state === 'running') : [];
  } catch {
    return true;
  }
  if (running.length === 0) return true;
  const named = running.map((process) => `${process.id}: ${process.command}`).join('\n');
  const count = running.length === 1 ? 'A background process runs' : `${running.length} background processes run`;
  return globalThis.confirm(
    `${count} in this session:\n${named}\n\n${what} stops ${running.length === 1 ? 'it' : 'them'}. Go on?`,
  );
}

export const ActionsContext = createContext<PanelActions | null>(null);

export function useActions(): PanelActions {
  const actions = useContext(ActionsContext);
  if (!actions) throw new Error('useActions needs an ActionsContext provider.');
  return actions;
}
