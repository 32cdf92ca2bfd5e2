import path from 'node:path';
import { sandboxUnavailable } from '../agent/permissions.ts';
import { AGENT_TOOL_NAME } from '../../protocol/agents.ts';
import { agentChoices } from '../agent/agents/agent-choices.ts';
import type { PanelHandlers, PanelInfo, Result, SessionSummary, Settings } from '../../protocol/api.ts';
import { SessionToolset } from '../agent/session-toolset.ts';
import { deleteSession, listSessions, searchSessions } from '../agent/sessions.ts';
import { sweepWorkspaceOnce } from '../agent/start-sweep.ts';
import { parseModelId } from '../model/index.ts';
import { ModelDirectory } from '../model/model-directory.ts';
import { PanelEventHub } from './panel-events.ts';
import type { StoredSettings } from './settings-store.ts';
import { panelSettings, startingSettings } from './panel-settings.ts';
import type { PanelServiceOptions } from './panel-service-options.ts';
import { WorkspaceIndex } from './composer/workspace-index.ts';
import { ImageStore, imageModelRefusal } from './composer/image-store.ts';
import { attempt, ok } from './panel-results.ts';
import { checkServerModel } from './session-settings.ts';
import { ShownSession } from './shown-session.ts';
import { openSessionHandlers } from './open-session-handlers.ts';
import { exportHandlers } from './export-handlers.ts';
import { queueHandlers, savedQueue } from './queue-handlers.ts';
import { processHandlers } from './process-handlers.ts';
import { fileHandlers } from './file-viewer.ts';
import { workspaceHandlers } from './workspace-handlers.ts';
import { WaitingForms } from '../agent/mcp-forms.ts';
import { historyHandlers } from './history-handlers.ts';
import { PromptHistoryFile } from './prompt-history.ts';
import { LiveSession } from './live-session.ts';

// The panel service: every channel of the panel API on top of one agent session at a time, the
// session catalog, the settings and the key store. Plain Node, so the Electron shell, the web host
// and the tests all run the same core; each host only carries requests in and events out. The
// session the panel sends to is the live one (live-session.ts).

export class PanelService {
  readonly events = new PanelEventHub();
  readonly handlers: PanelHandlers;
  private readonly options: PanelServiceOptions;
  private readonly live: LiveSession;
  /** What is shown besides the live session: a session viewed read-only, the pages of the one shown. */
  private readonly shown: ShownSession;
  /** Session switches, model changes and sends run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly toolset: SessionToolset;
  /** Windows and prices for the context meter: the registry, settings overrides, compatible servers. */
  private readonly models = new ModelDirectory();
  /** The workspace's file names for `@`, walked on the first query. */
  private readonly files: WorkspaceIndex;
  /** Images attached in the composer, until their message goes out. */
  private readonly images = new ImageStore();
  /** The forms MCP servers wait on during their calls (elicitation), shown above the composer. */
  private readonly elicitations = new WaitingForms((views) =>
    this.events.publish({ event: 'mcp:elicitations', payload: views }),
  );

  constructor(options: PanelServiceOptions) {
    this.options = options;
    this.files = new WorkspaceIndex({ workspace: options.workspace });
    this.shown = new ShownSession(options.workspace);
    // The MCP servers start with the first session and serve every session until the service closes.
    this.toolset = new SessionToolset({
      workspace: options.workspace,
      ...(options.mcpHome ? { mcpHome: options.mcpHome } : {}),
      ...(options.mcpSecrets ? { mcpSecrets: options.mcpSecrets } : {}),
      // A server that wants OAuth waits for the person's Sign in on the MCP servers screen.
      mcpSignIn: { onlyWhenAsked: true, ...(options.openSignIn ? { open: options.openSignIn } : {}) },
      mcpElicit: this.elicitations.ask,
    });
    this.live = new LiveSession({
      options,
      events: this.events,
      shown: this.shown,
      toolset: this.toolset,
      models: this.models,
    });
    // Temp files a killed writer left behind, in the background (a bounded walk; each write also
    // sweeps its own folder); the first session waits for it as it opens.
    void sweepWorkspaceOnce(options.workspace);
    this.handlers = {
      'panel:info': () => this.info(),
      'turn:send': ({ text, mentions, images, mode }) =>
        this.exclusive(async () => {
          const foreign = this.shown.sendRefusal();
          if (foreign) return foreign;
          if (images && images.length > 0) {
            let model = this.live.modelId;
            if (model === undefined) {
              const settings = await this.startingSettings('start a session');
              if (!settings.ok) return settings;
              model = settings.value.model;
            }
            const refusal = imageModelRefusal(model);
            if (refusal) return { ok: false, error: refusal };
          }
          const current = await this.live.ensure();
          if (!current.ok) return current;
          const session = current.value;
          const kept = await attempt(() => this.images.persist(session.log.dir, images ?? []));
          if (!kept.ok) return kept;
          const sent = session.send(text, mentions, kept.value, mode ? { mode } : {});
          if (sent.ok) this.live.announce();
          if (sent.ok && sent.value.queued) {
            const saved = await savedQueue(session);
            if (!saved.ok) return saved;
          }
          return sent;
        }),
      'turn:stop': async () => (this.live.session ? this.live.session.stop() : ok(undefined)),
      'session:list': () => attempt(() => listSessions(this.options.sessionsRoot)),
      'session:search': ({ query }) => attempt(() => searchSessions(this.options.sessionsRoot, query)),
      'session:rename': ({ id, title }) => this.exclusive(() => this.live.rename(id, title)),
      'notify:show': async (notice) =>
        this.options.notify
          ? this.options.notify(notice, () =>
              this.events.publish({ event: 'notify:clicked', payload: { tag: notice.tag } }),
            )
          : { ok: false, error: 'This host shows no system notifications; the page shows its own.' },
      'session:open': ({ id }) => this.exclusive(() => this.live.open(id)),
      'session:page': ({ id, before }) => this.shown.olderPage(id, before),
      'session:new': () => this.exclusive(() => this.startNew()),
      'session:new-as': ({ agent }) => this.exclusive(() => this.startNew(agent)),
      'agents:list': () => attempt(() => agentChoices(this.options.workspace, this.options.home)),
      'session:delete': ({ id }) =>
        this.exclusive(async () => {
          if (this.live.session?.id === id) {
            const busy = this.live.busyRefusal('delete it');
            if (busy) return busy;
            await this.live.close();
          }
          return attempt(() => deleteSession(this.options.sessionsRoot, id));
        }),
      'settings:get': () => attempt(() => this.settings()),
      'settings:update': (patch) => this.exclusive(() => this.updateSettings(patch)),
      'settings:set-key': ({ provider, key }) =>
        this.exclusive(async () => {
          const stored = await this.options.keys.set(provider, key);
          if (!stored.ok) return stored;
          // A new key matters to the adapter of the current session when it is that provider's.
          const model = this.live.modelId;
          if (model !== undefined) await this.live.switchModel(model);
          return attempt(() => this.settings());
        }),
      'link:open': ({ url }) => this.options.openLink(url),
      ...exportHandlers({ sessionsRoot: options.sessionsRoot, keys: options.keys }),
      ...openSessionHandlers({
        session: () => this.live.session,
        shown: this.shown,
        sessionsRoot: options.sessionsRoot,
        exclusive: (task) => this.exclusive(task),
      }),
      ...queueHandlers({ session: () => this.live.session, shown: this.shown }),
      ...processHandlers({ processes: () => this.live.processes, shown: this.shown }),
      'plan:approve': ({ call_id, plan, todos, mode }) =>
        this.exclusive(async () => {
          const viewed = this.shown.viewRefusal('approve its plan');
          if (viewed) return viewed;
          const session = this.live.session;
          if (!session) return { ok: false, error: 'No session is open: the plan is not there to approve.' };
          if (session.busy)
            return { ok: false, error: 'A turn is running: stop it (Esc) or wait before you approve the plan.' };
          const switched = await this.updateSettings({ permission_mode: mode });
          if (!switched.ok) return switched;
          const started = session.approvePlan(call_id, plan, todos);
          if (started.ok) this.live.announce();
          return started;
        }),
      ...fileHandlers({
        workspace: () => this.shown.shownWorkspace(),
        settings: options.settings,
        ...(options.openInEditor ? { openInEditor: options.openInEditor } : {}),
      }),
      'mcp:elicitations': async () => ok(this.elicitations.list()),
      'mcp:elicit-answer': async (answer) => this.elicitations.answer(answer),
      // Kept beside settings.json: the app's data folder in either host.
      ...historyHandlers(new PromptHistoryFile(path.dirname(options.settings.file), options.workspace)),
      ...workspaceHandlers({
        workspace: options.workspace,
        ...(options.home === undefined ? {} : { home: options.home }),
        files: this.files,
        images: this.images,
        models: this.models,
        toolset: this.toolset,
        sessionDir: () => this.live.session?.log.dir ?? null,
      }),
    };
  }

  async info(): Promise<PanelInfo> {
    return {
      workspace: this.options.workspace,
      session: this.live.summary(),
      models: this.options.models.ids(),
      tools: this.toolNames(),
      version: this.options.version,
      ...(this.options.openInEditor ? { opens_editor: true } : {}),
      ...(this.options.keys.storesKeys ? {} : { keys_from_environment: true }),
      ...unsandboxedHere(),
    };
  }

  /** The open session's registry; before one exists, the built-in tools it will register. */
  private toolNames(): string[] {
    if (this.live.session) return this.live.session.registry.list().map((tool) => tool.name);
    // Every session the panel opens may start agents.
    return [...this.toolset.builtinToolNames(), AGENT_TOOL_NAME];
  }

  /** Whether the open session has a background process running now (the desktop app asks before Quit stops it). */
  hasRunningProcesses(): boolean {
    return (this.live.processes?.running().length ?? 0) > 0;
  }

  /** Stops the running turn (its turn_failed says `reason` when the app is being ended) and closes the session file. */
  async close(reason?: string): Promise<void> {
    await this.exclusive(() => this.live.close(reason));
    this.elicitations.close();
    await this.toolset.close();
  }

  private settings(): Promise<Settings> {
    return panelSettings(this.options.settings, this.options.keys, this.options.models);
  }

  /** The settings a new or reopened session starts from; refused while settings.json cannot be used. */
  private startingSettings(what: string): Promise<Result<StoredSettings>> {
    return startingSettings(this.options.settings, what);
  }

  private async updateSettings(patch: Partial<StoredSettings>): Promise<Result<Settings>> {
    // Nothing changes, not even the open session's model, while settings.json cannot be used.
    const readable = await this.startingSettings('change settings');
    if (!readable.ok) return readable;
    if (patch.model !== undefined) {
      const parsed = parseModelId(patch.model);
      if (!parsed.ok) return parsed;
      const offered = await checkServerModel(this.models, patch.model);
      if (!offered.ok) return offered;
    }
    if (patch.model !== undefined && this.live.session) {
      const switched = await this.live.switchModel(patch.model);
      if (!switched.ok) return switched;
    }
    const saved = await attempt(() => this.options.settings.update(patch));
    if (!saved.ok) return saved;
    const stored = saved.value;
    this.live.applySettings(stored, patch);
    this.options.onSettingsChanged?.(stored);
    return attempt(() => this.settings());
  }

  /** The panel's New session (as an agent, when given): the live session closed, a new one started. */
  private async startNew(as?: string): Promise<Result<SessionSummary>> {
    const busy = this.live.busyRefusal('start a new session');
    if (busy) return busy;
    await this.live.close();
    const started = await this.live.ensure(as);
    return started.ok ? ok(this.live.summary() ?? started.value.summary()) : started;
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Where the sandbox mode cannot sandbox, the line the panel says about it. */
function unsandboxedHere(): Pick<PanelInfo, 'sandbox_unavailable'> {
  const notice = sandboxUnavailable();
  return notice ? { sandbox_unavailable: notice } : {};
}
