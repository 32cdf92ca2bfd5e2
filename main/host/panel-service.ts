import path from 'node:path';
import { sandboxUnavailable } from '../agent/permissions.ts';
import { AGENT_TOOL_NAME } from '../../protocol/agents.ts';
import { agentChoices } from '../agent/agents/agent-choices.ts';
import { readAgentSession } from '../agent/agents/child-sessions.ts';
import { errorMessage } from '../../protocol/errors.ts';
import type { PanelHandlers, PanelInfo, Result, OpenedSession, SessionSummary, Settings } from '../../protocol/api.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { openAgentSession, type OpenedAgentSession } from '../agent/open-agent-session.ts';
import { SessionToolset } from '../agent/session-toolset.ts';
import {
  deleteSession,
  listSessions,
  openSession,
  peekSession,
  readTitle,
  searchSessions,
  SessionLockedError,
  SessionPages,
  writeTitle,
} from '../agent/sessions.ts';
import { sweepWorkspaceOnce } from '../agent/start-sweep.ts';
import { parseModelId, type ModelAdapter } from '../model/index.ts';
import { ModelDirectory } from '../model/model-directory.ts';
import type { StatusSink } from '../status/sink.ts';
import { PanelEventHub } from './panel-events.ts';
import type { StoredSettings } from './settings-store.ts';
import { panelSettings, startingSettings } from './panel-settings.ts';
import type { PanelServiceOptions } from './panel-service-options.ts';
import { CheckpointSetting } from './checkpoint-setting.ts';
import { CompactionSetting } from './compaction-setting.ts';
import { WorkspaceIndex } from './composer/workspace-index.ts';
import { ImageStore, imageModelRefusal } from './composer/image-store.ts';
import { attempt, ok, type Refusal } from './panel-results.ts';
import {
  agentOptionsOf,
  applyPermissions,
  checkServerModel,
  commandEnvOf,
  editLimitOf,
  processLimitsOf,
  permissionsOf,
} from './session-settings.ts';
import { ShownSession } from './shown-session.ts';
import { busyRefusal, openSessionHandlers } from './open-session-handlers.ts';
import { exportHandlers } from './export-handlers.ts';
import { queueHandlers, savedQueue } from './queue-handlers.ts';
import { processHandlers } from './process-handlers.ts';
import { fileHandlers } from './file-viewer.ts';
import { workspaceHandlers } from './workspace-handlers.ts';
import { WaitingForms } from '../agent/mcp-forms.ts';
import { historyHandlers } from './history-handlers.ts';
import { PromptHistoryFile } from './prompt-history.ts';

// The panel service: every channel of the panel API on top of one agent session at a time, the
// session catalog, the settings and the key store. Plain Node, so the Electron shell, the web host
// and the tests all run the same core; each host only carries requests in and events out.

interface Current {
  session: AgentSession;
  model: ModelAdapter;
  /** Closes the session and lets go of what was opened with it (openAgentSession). */
  close: OpenedAgentSession['close'];
  /** Its background processes, stopped by `close`. */
  processes: OpenedAgentSession['processes'];
}

export class PanelService {
  readonly events = new PanelEventHub();
  readonly handlers: PanelHandlers;
  private readonly options: PanelServiceOptions;
  private current: Current | null = null;
  /** What is shown besides the live session: a session viewed read-only, the pages of the one shown. */
  private readonly shown: ShownSession;
  /** Names the person gave sessions (session-titles.ts), for the summaries this service announces. */
  private readonly renamed = new Map<string, string>();
  /** Session switches, model changes and sends run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly toolset: SessionToolset;
  /** Windows and prices for the context meter: the registry, settings overrides, compatible servers. */
  private readonly models = new ModelDirectory();
  /** The compaction threshold every session reads before each model step. */
  private readonly compaction = new CompactionSetting();
  /** Checkpoints on or off and their storage bound, read by every session before each changing call. */
  private readonly checkpointSetting = new CheckpointSetting();
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
            let model = this.current?.model.id;
            if (model === undefined) {
              const settings = await this.startingSettings('start a session');
              if (!settings.ok) return settings;
              model = settings.value.model;
            }
            const refusal = imageModelRefusal(model);
            if (refusal) return { ok: false, error: refusal };
          }
          const current = await this.ensureSession();
          if (!current.ok) return current;
          const { session } = current.value;
          const kept = await attempt(() => this.images.persist(session.log.dir, images ?? []));
          if (!kept.ok) return kept;
          const sent = session.send(text, mentions, kept.value, mode ? { mode } : {});
          if (sent.ok) this.announce();
          if (sent.ok && sent.value.queued) {
            const saved = await savedQueue(session);
            if (!saved.ok) return saved;
          }
          return sent;
        }),
      'turn:stop': async () => (this.current ? this.current.session.stop() : ok(undefined)),
      'session:list': () => attempt(() => listSessions(this.options.sessionsRoot)),
      'session:search': ({ query }) => attempt(() => searchSessions(this.options.sessionsRoot, query)),
      'session:rename': ({ id, title }) => this.exclusive(() => this.rename(id, title)),
      'notify:show': async (notice) =>
        this.options.notify
          ? this.options.notify(notice, () =>
              this.events.publish({ event: 'notify:clicked', payload: { tag: notice.tag } }),
            )
          : { ok: false, error: 'This host shows no system notifications; the page shows its own.' },
      'session:open': ({ id }) => this.exclusive(() => this.open(id)),
      'session:page': ({ id, before }) => this.shown.olderPage(id, before),
      'session:new': () =>
        this.exclusive(async () => {
          const busy = this.busyRefusal('start a new session');
          if (busy) return busy;
          await this.closeCurrent();
          const started = await this.ensureSession();
          return started.ok ? ok(this.currentSummary() ?? started.value.session.summary()) : started;
        }),
      'session:new-as': ({ agent }) =>
        this.exclusive(async () => {
          const busy = this.busyRefusal('start a new session');
          if (busy) return busy;
          await this.closeCurrent();
          const started = await this.ensureSession(agent);
          return started.ok ? ok(this.currentSummary() ?? started.value.session.summary()) : started;
        }),
      'agents:list': () => attempt(() => agentChoices(this.options.workspace, this.options.home)),
      'session:delete': ({ id }) =>
        this.exclusive(async () => {
          if (this.current?.session.id === id) {
            const busy = this.busyRefusal('delete it');
            if (busy) return busy;
            await this.closeCurrent();
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
          if (this.current) await this.switchModel(this.current.model.id);
          return attempt(() => this.settings());
        }),
      'link:open': ({ url }) => this.options.openLink(url),
      ...exportHandlers({ sessionsRoot: options.sessionsRoot, keys: options.keys }),
      ...openSessionHandlers({
        session: () => this.current?.session ?? null,
        shown: this.shown,
        sessionsRoot: options.sessionsRoot,
        exclusive: (task) => this.exclusive(task),
      }),
      ...queueHandlers({ session: () => this.current?.session ?? null, shown: this.shown }),
      ...processHandlers({ processes: () => this.current?.processes ?? null, shown: this.shown }),
      'plan:approve': ({ call_id, plan, todos, mode }) =>
        this.exclusive(async () => {
          const viewed = this.shown.viewRefusal('approve its plan');
          if (viewed) return viewed;
          const session = this.current?.session;
          if (!session) return { ok: false, error: 'No session is open: the plan is not there to approve.' };
          if (session.busy)
            return { ok: false, error: 'A turn is running: stop it (Esc) or wait before you approve the plan.' };
          const switched = await this.updateSettings({ permission_mode: mode });
          if (!switched.ok) return switched;
          const started = session.approvePlan(call_id, plan, todos);
          if (started.ok) this.announce();
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
        sessionDir: () => this.current?.session.log.dir ?? null,
      }),
    };
  }

  async info(): Promise<PanelInfo> {
    return {
      workspace: this.options.workspace,
      session: this.currentSummary(),
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
    if (this.current) return this.current.session.registry.list().map((tool) => tool.name);
    // Every session the panel opens may start agents.
    return [...this.toolset.builtinToolNames(), AGENT_TOOL_NAME];
  }

  /** Whether the open session has a background process running now (the desktop app asks before Quit stops it). */
  hasRunningProcesses(): boolean {
    return (this.current?.processes.running().length ?? 0) > 0;
  }

  /** Stops the running turn (its turn_failed says `reason` when the app is being ended) and closes the session file. */
  async close(reason?: string): Promise<void> {
    await this.exclusive(() => this.closeCurrent(reason));
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
    if (patch.model !== undefined && this.current) {
      const switched = await this.switchModel(patch.model);
      if (!switched.ok) return switched;
    }
    const saved = await attempt(() => this.options.settings.update(patch));
    if (!saved.ok) return saved;
    const stored = saved.value;
    if (this.current) {
      this.current.session.setEffort(stored.effort);
      if (patch.permission_mode !== undefined || patch.permission_rules !== undefined)
        applyPermissions(this.current.session, stored);
    }
    this.compaction.apply(stored);
    this.checkpointSetting.apply(stored);
    this.options.onSettingsChanged?.(stored);
    return attempt(() => this.settings());
  }

  private async ensureSession(as?: string): Promise<Result<Current>> {
    if (this.current) return ok(this.current);
    const read = await this.startingSettings('start a session');
    if (!read.ok) return read;
    const settings = read.value;
    const model = await this.createModel(settings.model);
    if (!model.ok) return model;
    let current: Current;
    try {
      const opened = await openAgentSession({ ...this.sessionOptions(settings, model.value), ...(as ? { as } : {}) });
      current = this.adopt(opened, model.value);
      this.shown.live();
    } catch (error) {
      await model.value.close?.();
      return { ok: false, error: `Could not start a session in ${this.options.sessionsRoot}: ${errorMessage(error)}` };
    }
    this.announce();
    return ok(current);
  }

  /** What a started and a resumed session are both given: this workspace, its model, the settings. */
  private sessionOptions(settings: StoredSettings, model: ModelAdapter) {
    this.models.setOverrides(settings.model_overrides);
    this.compaction.apply(settings);
    this.checkpointSetting.apply(settings);
    return {
      workspace: this.options.workspace,
      sessionsRoot: this.options.sessionsRoot,
      model,
      sink: this.sink(),
      permissions: permissionsOf(settings),
      effort: settings.effort,
      commandEnv: commandEnvOf(this.options.settings),
      maxEditBytes: editLimitOf(this.options.settings),
      processLimits: processLimitsOf(this.options.settings),
      toolset: this.toolset,
      models: this.models,
      compactAt: this.compaction.threshold,
      promptCacheTtl: settings.prompt_cache_ttl,
      checkpoints: this.checkpointSetting.current,
      ...(this.options.home ? { hooks: { home: this.options.home }, skills: { home: this.options.home } } : {}),
      agents: agentOptionsOf(settings, this.options.home, async (id) => {
        const made = await this.createModel(id);
        if (!made.ok) throw new Error(made.error);
        return made.value;
      }),
    };
  }

  private adopt(opened: OpenedAgentSession, model: ModelAdapter): Current {
    this.current = { session: opened.session, model, close: opened.close, processes: opened.processes };
    return this.current;
  }

  private async open(id: string): Promise<Result<OpenedSession>> {
    this.shown.reset();
    if (this.current?.session.id !== id) {
      const busy = this.busyRefusal('open another session');
      if (busy) return busy;
      // An agent's session, under its parent's folder, is only ever shown.
      const agent = await attempt(() => readAgentSession(this.options.sessionsRoot, id));
      if (!agent.ok) return agent;
      if (agent.value) return ok(this.shown.showAgent(agent.value));
      // Its header says whose workspace it is; the file itself is read once, by whoever shows it.
      const peeked = await attempt(() => peekSession(this.options.sessionsRoot, id));
      if (!peeked.ok) return peeked;
      if (peeked.value.workspace !== this.options.workspace) {
        const opened = await attempt(() => openSession(this.options.sessionsRoot, id));
        return opened.ok ? ok(this.shown.showForeign(opened.value)) : opened;
      }
      const read = await this.startingSettings(`reopen session ${id}`);
      if (!read.ok) return read;
      await this.closeCurrent();
      const settings = read.value;
      const model = await this.createModel(settings.model);
      if (!model.ok) return model;
      let session: AgentSession;
      try {
        const opened = await openAgentSession({ ...this.sessionOptions(settings, model.value), resume: id });
        session = this.adopt(opened, model.value).session;
        const title = await readTitle(this.options.sessionsRoot, id);
        if (title !== null) this.renamed.set(id, title);
      } catch (error) {
        await model.value.close?.();
        if (error instanceof SessionLockedError) {
          const opened = await attempt(() => openSession(this.options.sessionsRoot, id));
          return opened.ok ? ok(this.shown.showReadOnly(opened.value, error)) : opened;
        }
        return { ok: false, error: `Could not reopen session ${id}: ${errorMessage(error)}` };
      }
      this.announce();
      // What the resume read, repairs included (it wrote them), is what the panel shows: no second read.
      if (session.reopened && session.reopenedPages) {
        const summary = this.currentSummary() ?? session.reopened.summary;
        return ok(this.shown.firstPage(session.reopenedPages, { ...session.reopened, summary }));
      }
    }
    // The session is live here (a page reload): a turn running in it must not be drawn as interrupted.
    const reopened = await attempt(() => openSession(this.options.sessionsRoot, id, { live: true }));
    if (!reopened.ok) return reopened;
    // The damage found when it was resumed (a torn tail is cut off by then, so this read misses it).
    const notices = this.current?.session.reopened?.notices ?? reopened.value.opened.notices;
    const { notices: _, ...read } = reopened.value.opened;
    // What waits now, though its events may lie before the page the panel gets.
    const queue = this.current?.session.queue();
    const todos = this.current?.session.todoList() ?? [];
    const opened = {
      ...read,
      ...(queue && queue.items.length > 0 ? { queue } : {}),
      ...(todos.length > 0 ? { todos } : {}),
    };
    return ok(this.shown.firstPage(new SessionPages(reopened.value.replay), notices ? { ...opened, notices } : opened));
  }

  private async switchModel(id: string): Promise<Result<void>> {
    const current = this.current;
    if (!current) return ok(undefined);
    const model = await this.createModel(id);
    if (!model.ok) return model;
    current.session.setModel(model.value);
    const previous = current.model;
    current.model = model.value;
    // A turn still streaming from the old adapter keeps it until the turn ends.
    void current.session.idle().then(() => previous.close?.());
    this.announce();
    return ok(undefined);
  }

  private async createModel(id: string): Promise<Result<ModelAdapter>> {
    try {
      const seconds = (await this.options.settings.get()).model_request_timeout_s;
      const options = seconds === undefined ? {} : { requestTimeoutMs: seconds * 1000 };
      return ok(await this.options.models.create(id, this.options.keys, options));
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
  }

  private async closeCurrent(reason?: string): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = null;
    await current.close(reason);
    await current.model.close?.();
  }

  private busyRefusal(what: string): Refusal | null {
    return busyRefusal(this.current?.session ?? null, what);
  }

  /** Status events go to every window; the end of a turn also refreshes the session's summary. */
  private sink(): StatusSink {
    return {
      emit: (event) => {
        this.events.publish({ event: 'status', payload: event });
        if (event.type === 'turn_completed' || event.type === 'turn_failed') this.announce();
      },
    };
  }

  private announce(): void {
    const summary = this.currentSummary();
    if (summary) this.events.publish({ event: 'session:changed', payload: summary });
  }

  /** The open session's summary, named as the person renamed it. */
  private currentSummary(): SessionSummary | null {
    if (!this.current) return null;
    const summary = this.current.session.summary();
    const title = this.renamed.get(summary.id);
    return title === undefined ? summary : { ...summary, title };
  }

  private async rename(id: string, title: string): Promise<Result<SessionSummary>> {
    const written = await attempt(() => writeTitle(this.options.sessionsRoot, id, title));
    if (!written.ok) return written;
    const stored = await readTitle(this.options.sessionsRoot, id);
    if (stored === null) this.renamed.delete(id);
    else this.renamed.set(id, stored);
    if (this.current?.session.id === id) {
      this.announce();
      return ok(this.currentSummary() ?? this.current.session.summary());
    }
    const listed = await attempt(() => listSessions(this.options.sessionsRoot));
    const summary = listed.ok ? listed.value.find((entry) => entry.id === id) : undefined;
    return summary ? ok(summary) : { ok: false, error: `Session ${id} was renamed but is no longer listed.` };
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
