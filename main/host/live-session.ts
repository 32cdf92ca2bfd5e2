import { errorMessage } from '../../protocol/errors.ts';
import type { Result, OpenedSession, SessionSummary } from '../../protocol/api.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { readAgentSession } from '../agent/agents/child-sessions.ts';
import { openAgentSession, type OpenedAgentSession } from '../agent/open-agent-session.ts';
import type { SessionToolset } from '../agent/session-toolset.ts';
import {
  listSessions,
  openSession,
  peekSession,
  readTitle,
  SessionLockedError,
  SessionPages,
  writeTitle,
} from '../agent/sessions.ts';
import type { ModelAdapter } from '../model/index.ts';
import type { ModelDirectory } from '../model/model-directory.ts';
import type { StatusSink } from '../status/sink.ts';
import type { PanelEventHub } from './panel-events.ts';
import type { StoredSettings } from './settings-store.ts';
import { startingSettings } from './panel-settings.ts';
import type { PanelServiceOptions } from './panel-service-options.ts';
import { CheckpointSetting } from './checkpoint-setting.ts';
import { CompactionSetting } from './compaction-setting.ts';
import { attempt, ok, type Refusal } from './panel-results.ts';
import {
  agentOptionsOf,
  applyPermissions,
  commandEnvOf,
  editLimitOf,
  processLimitsOf,
  permissionsOf,
} from './session-settings.ts';
import type { ShownSession } from './shown-session.ts';
import { busyRefusal } from './open-session-handlers.ts';

// The panel's live session: the one agent session at a time that the panel sends to, started or
// reopened with the settings and this workspace, its model switched in place, its summary (named
// as the person renamed it) announced to every window, and closed with what was opened with it.

interface Current {
  session: AgentSession;
  model: ModelAdapter;
  /** Closes the session and lets go of what was opened with it (openAgentSession). */
  close: OpenedAgentSession['close'];
  /** Its background processes, stopped by `close`. */
  processes: OpenedAgentSession['processes'];
}

export interface LiveSessionParts {
  options: PanelServiceOptions;
  events: PanelEventHub;
  /** What is shown besides the live session: a session viewed read-only, the pages of the one shown. */
  shown: ShownSession;
  toolset: SessionToolset;
  /** Windows and prices for the context meter: the registry, settings overrides, compatible servers. */
  models: ModelDirectory;
}

export class LiveSession {
  private readonly options: PanelServiceOptions;
  private readonly events: PanelEventHub;
  private readonly shown: ShownSession;
  private readonly toolset: SessionToolset;
  private readonly models: ModelDirectory;
  private current: Current | null = null;
  /** Names the person gave sessions (session-titles.ts), for the summaries this service announces. */
  private readonly renamed = new Map<string, string>();
  /** The compaction threshold every session reads before each model step. */
  private readonly compaction = new CompactionSetting();
  /** Checkpoints on or off and their storage bound, read by every session before each changing call. */
  private readonly checkpointSetting = new CheckpointSetting();

  constructor(parts: LiveSessionParts) {
    this.options = parts.options;
    this.events = parts.events;
    this.shown = parts.shown;
    this.toolset = parts.toolset;
    this.models = parts.models;
  }

  get session(): AgentSession | null {
    return this.current?.session ?? null;
  }

  /** The id of the live session's model; undefined without a session. */
  get modelId(): string | undefined {
    return this.current?.model.id;
  }

  get processes(): OpenedAgentSession['processes'] | null {
    return this.current?.processes ?? null;
  }

  /** The live session, started (as the agent `as`, when given) if there is none. */
  async ensure(as?: string): Promise<Result<AgentSession>> {
    if (this.current) return ok(this.current.session);
    const read = await startingSettings(this.options.settings, 'start a session');
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
    return ok(current.session);
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

  /**
   * Opens a session of the catalog: this workspace's becomes the live session (reopened, or shown
   * read-only while another process holds it); another workspace's is shown read-only.
   */
  async open(id: string): Promise<Result<OpenedSession>> {
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
      const read = await startingSettings(this.options.settings, `reopen session ${id}`);
      if (!read.ok) return read;
      await this.close();
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
        const summary = this.summary() ?? session.reopened.summary;
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

  /** Gives the live session a new model adapter; a turn still streaming keeps the old one until it ends. */
  async switchModel(id: string): Promise<Result<void>> {
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

  /** Settings just saved, as the live session and the ones to come read them. */
  applySettings(stored: StoredSettings, patch: Partial<StoredSettings>): void {
    if (this.current) {
      this.current.session.setEffort(stored.effort);
      if (patch.permission_mode !== undefined || patch.permission_rules !== undefined)
        applyPermissions(this.current.session, stored);
    }
    this.compaction.apply(stored);
    this.checkpointSetting.apply(stored);
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

  /** Stops the running turn (its turn_failed says `reason`), closes the session and its model. */
  async close(reason?: string): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = null;
    await current.close(reason);
    await current.model.close?.();
  }

  busyRefusal(what: string): Refusal | null {
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

  announce(): void {
    const summary = this.summary();
    if (summary) this.events.publish({ event: 'session:changed', payload: summary });
  }

  /** The live session's summary, named as the person renamed it. */
  summary(): SessionSummary | null {
    if (!this.current) return null;
    const summary = this.current.session.summary();
    const title = this.renamed.get(summary.id);
    return title === undefined ? summary : { ...summary, title };
  }

  /** Renames a session of the catalog; the live one's new summary is announced. */
  async rename(id: string, title: string): Promise<Result<SessionSummary>> {
    const written = await attempt(() => writeTitle(this.options.sessionsRoot, id, title));
    if (!written.ok) return written;
    const stored = await readTitle(this.options.sessionsRoot, id);
    if (stored === null) this.renamed.delete(id);
    else this.renamed.set(id, stored);
    if (this.current?.session.id === id) {
      this.announce();
      return ok(this.summary() ?? this.current.session.summary());
    }
    const listed = await attempt(() => listSessions(this.options.sessionsRoot));
    const summary = listed.ok ? listed.value.find((entry) => entry.id === id) : undefined;
    return summary ? ok(summary) : { ok: false, error: `Session ${id} was renamed but is no longer listed.` };
  }
}
