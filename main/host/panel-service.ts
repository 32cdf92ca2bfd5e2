import { errorMessage } from '../../protocol/errors.ts';
import type {
  PanelHandlers,
  PanelInfo,
  ProviderId,
  Result,
  OpenedSession,
  SessionPage,
  SessionSummary,
  Settings,
  SystemNotice,
  ToolContent,
} from '../../protocol/api.ts';
import { AgentSession } from '../agent/agent-session.ts';
import { TOOL_KINDS } from '../../protocol/values.ts';
import { bypassesProtectedPaths, rulesForMode } from '../agent/permissions.ts';
import { EMPTY_RULES } from '../tools/permission-rules.ts';
import { parseModelId, type ModelAdapter } from '../model/index.ts';
import { deleteSession, listSessions, openedOf, openSession, peekSession } from '../session/catalog.ts';
import { SessionPages } from '../session/event-pages.ts';
import { SessionLockedError } from '../session/session-lock.ts';
import type { StatusSink } from '../status/sink.ts';
import { keyPresence, type KeyStore } from './key-store.ts';
import { PanelEventHub } from './panel-events.ts';
import type { SettingsStore, StoredSettings } from './settings-store.ts';
import { DEFAULT_MAX_EDIT_BYTES, MIB } from '../tools/files/file-versions.ts';
import { sweepWorkspace } from '../tools/files/temp-files.ts';
import { SessionToolset } from './session-toolset.ts';
import { ModelDirectory } from './model-directory.ts';
import { CompactionSetting } from './compaction-setting.ts';
import { applyMcpChange } from '../tools/mcp/mcp-screen.ts';
import { applyRewind, previewRewind } from './rewind-panel.ts';
import { revertChanges, turnChanges } from './changes-panel.ts';
import { searchSessions } from '../session/session-search.ts';
import { readTitle, writeTitle } from '../session/session-titles.ts';
import { loadUserCommands } from './composer/user-commands.ts';
import { WorkspaceIndex } from './composer/workspace-index.ts';
import { ImageStore, imageForPanel, imageModelRefusal } from './composer/image-store.ts';

// The panel service: every channel of the panel API on top of one agent session at a time, the
// session catalog, the settings and the key store. Plain Node, so the Electron shell, the web host
// and the tests all run the same core; each host only carries requests in and events out.

export interface ModelCatalog {
  /** The ids the model picker offers. */
  ids(): string[];
  /** Throws an error a person can act on (a missing key, an unknown id). */
  create(id: string, keys: KeyStore, options?: { requestTimeoutMs?: number }): Promise<ModelAdapter>;
  /** The provider whose key `create` would miss for this id, looking where `create` looks; null when none. */
  missingKey(id: string, keys: KeyStore): Promise<ProviderId | null>;
}

export interface PanelServiceOptions {
  /** The workspace root, real path. */
  workspace: string;
  sessionsRoot: string;
  settings: SettingsStore;
  keys: KeyStore;
  models: ModelCatalog;
  version: string;
  /** How this host opens an https: link (Electron: after a confirmation dialog). */
  openLink(url: string): Promise<Result<void>>;
  /** Told after settings change, with the new settings (Electron turns updates on or off). */
  onSettingsChanged?(settings: StoredSettings): void;
  /** Shows a system notification (Electron); without it the page shows its own. A click publishes `notify:clicked`. */
  notify?(notice: SystemNotice, clicked: () => void): Result<void>;
  /**
   * The folder of the person's mcp.json (~/.aethercodex, moved by $AETHERCODEX_HOME): its MCP servers
   * and the workspace's start with the first session and stop when the service closes. Without it,
   * sessions have the built-in tools only.
   */
  mcpHome?: string;
  /** The app's home (~/.aethercodex, moved by $AETHERCODEX_HOME): its `commands/` holds the person's slash commands. */
  home?: string;
}

interface Current {
  session: AgentSession;
  model: ModelAdapter;
}

export class PanelService {
  readonly events = new PanelEventHub();
  readonly handlers: PanelHandlers;
  private readonly options: PanelServiceOptions;
  private current: Current | null = null;
  /** A session of another workspace, shown but not resumed: its cards still answer "what the model received". */
  private viewed: Map<string, ToolContent> | null = null;
  /** The workspace of the session shown read-only because it is not this one: sending is refused meanwhile. */
  private foreign: string | null = null;
  /** Names the person gave sessions (session-titles.ts), for the summaries this service announces. */
  private readonly renamed = new Map<string, string>();
  /** Where the shown session's events are, for its older pages. */
  private pages: SessionPages | null = null;
  /** Session switches, model changes and sends run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly toolset: SessionToolset;
  /** Windows and prices for the context meter: the registry, settings overrides, compatible servers. */
  private readonly models = new ModelDirectory();
  /** The compaction threshold every session reads before each model step. */
  private readonly compaction = new CompactionSetting();
  /** The workspace's file names for `@`, walked on the first query. */
  private readonly files: WorkspaceIndex;
  /** Images attached in the composer, until their message goes out. */
  private readonly images = new ImageStore();

  constructor(options: PanelServiceOptions) {
    this.options = options;
    this.files = new WorkspaceIndex({ workspace: options.workspace });
    this.toolset = new SessionToolset({
      workspace: options.workspace,
      settings: options.settings,
      ...(options.mcpHome ? { mcpHome: options.mcpHome } : {}),
      openRegistry: () => this.current?.session.registry ?? null,
    });
    // Temp files a killed writer left behind, in the background (a bounded walk; each write also
    // sweeps its own folder).
    void sweepWorkspace(options.workspace).catch(() => undefined);
    this.handlers = {
      'panel:info': () => this.info(),
      'turn:send': ({ text, mentions, images }) =>
        this.exclusive(async () => {
          if (this.foreign !== null) return foreignRefusal(this.foreign, this.options.workspace);
          if (images && images.length > 0) {
            const refusal = imageModelRefusal(this.current?.model.id ?? (await this.options.settings.get()).model);
            if (refusal) return { ok: false, error: refusal };
          }
          const current = await this.ensureSession();
          if (!current.ok) return current;
          const { session } = current.value;
          const kept = await attempt(() => this.images.persist(session.log.dir, images ?? []));
          if (!kept.ok) return kept;
          const sent = session.send(text, mentions, kept.value);
          if (sent.ok) this.announce();
          return sent;
        }),
      'turn:stop': async () => (this.current ? this.current.session.stop() : ok(undefined)),
      'tool:cancel': async ({ call_id }) => this.cancelCall(call_id),
      'tool:approve': async ({ call_id, answer }) =>
        this.current ? this.current.session.approve(call_id, answer) : noSession(),
      'tool:content': async ({ call_id }) => {
        const record = this.viewed?.get(call_id);
        if (record)
          return ok({ call_id: record.call_id, name: record.name, content: record.content, is_error: record.is_error });
        return this.current ? this.current.session.toolContent(call_id) : noSession();
      },
      'session:list': () => attempt(() => listSessions(this.options.sessionsRoot)),
      'session:search': ({ query }) => attempt(() => searchSessions(this.options.sessionsRoot, query)),
      'session:rename': ({ id, title }) => this.exclusive(() => this.rename(id, title)),
      'session:grants': async () => ok(this.current?.session.gate.sessionGrants() ?? []),
      'notify:show': async (notice) =>
        this.options.notify
          ? this.options.notify(notice, () =>
              this.events.publish({ event: 'notify:clicked', payload: { tag: notice.tag } }),
            )
          : { ok: false, error: 'This host shows no system notifications; the page shows its own.' },
      'session:revoke': async ({ rule }) => {
        if (!this.current) return noSession();
        if (!this.current.session.gate.revokeGrant(rule))
          return { ok: false, error: `${rule} is not allowed for this session (any more); nothing to revoke.` };
        return ok(this.current.session.gate.sessionGrants());
      },
      'session:open': ({ id }) => this.exclusive(() => this.open(id)),
      'session:page': ({ id, before }) => this.olderPage(id, before),
      'session:new': () =>
        this.exclusive(async () => {
          const busy = this.busyRefusal('start a new session');
          if (busy) return busy;
          await this.closeCurrent();
          const started = await this.ensureSession();
          return started.ok ? ok(this.currentSummary() ?? started.value.session.summary()) : started;
        }),
      'session:compact': async ({ focus }) => (this.current ? this.current.session.compact(focus) : noSession()),
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
      'rewind:preview': (request) =>
        this.exclusive(async () => {
          const current = this.current;
          if (!current) return noSession();
          return this.busyRefusal('rewind') ?? attempt(() => previewRewind(current.session, request));
        }),
      'rewind:apply': (request) =>
        this.exclusive(async () => {
          const current = this.current;
          if (!current) return noSession();
          const busy = this.busyRefusal('rewind');
          if (busy) return busy;
          return attempt(() => applyRewind(current.session, this.options.sessionsRoot, request));
        }),
      'changes:turn': ({ turn_id }) =>
        this.exclusive(async () => {
          const current = this.current;
          if (!current) return noSession();
          return attempt(() => turnChanges(current.session, turn_id));
        }),
      'changes:revert': (request) =>
        this.exclusive(async () => {
          const current = this.current;
          if (!current) return noSession();
          return this.busyRefusal('revert') ?? attempt(() => revertChanges(current.session, request));
        }),
      'composer:commands': () =>
        attempt(() =>
          loadUserCommands({
            workspace: options.workspace,
            ...(options.home === undefined ? {} : { home: options.home }),
          }),
        ),
      'composer:files': ({ query }) => attempt(() => this.files.find(query)),
      'models:server': ({ base_url }) => attempt(() => this.models.choices(base_url)),
      'composer:attach-image': ({ media_type, data }) => attempt(async () => this.images.attach(media_type, data)),
      'composer:image': ({ sha256 }) =>
        attempt(() => imageForPanel(this.images, this.current?.session.log.dir ?? null, sha256)),
      'mcp:servers': () => attempt(() => this.toolset.mcpScreen()),
      'mcp:change': (change) => attempt(() => this.toolset.mcpChange((servers) => applyMcpChange(servers, change))),
    };
  }

  async info(): Promise<PanelInfo> {
    return {
      workspace: this.options.workspace,
      session: this.currentSummary(),
      models: this.options.models.ids(),
      tools: this.toolNames(),
      version: this.options.version,
    };
  }

  /** Stop on a card: only a call of the running turn can be cancelled. */
  private cancelCall(callId: string): Result<void> {
    if (!this.current) return noSession();
    if (!this.current.session.busy)
      return {
        ok: false,
        error: `No turn is running, so call ${callId} has already finished; there is nothing to stop.`,
      };
    return this.current.session.cancelCall(callId);
  }

  /** The open session's registry; before one exists, the built-in tools it will register. */
  private toolNames(): string[] {
    if (this.current) return this.current.session.registry.list().map((tool) => tool.name);
    return this.toolset.builtinToolNames();
  }

  /** Stops the running turn and closes the session file. */
  async close(): Promise<void> {
    await this.exclusive(() => this.closeCurrent());
    await this.toolset.close();
  }

  private async settings(): Promise<Settings> {
    const stored = await this.options.settings.get();
    const [keys, missing] = await Promise.all([
      keyPresence(this.options.keys),
      this.options.models.missingKey(stored.model, this.options.keys),
    ]);
    return { ...stored, keys, missing_key: missing };
  }

  private async updateSettings(patch: Partial<StoredSettings>): Promise<Result<Settings>> {
    if (patch.model !== undefined) {
      const parsed = parseModelId(patch.model);
      if (!parsed.ok) return parsed;
      const offered = await this.checkServerModel(patch.model);
      if (!offered.ok) return offered;
    }
    if (patch.model !== undefined && this.current) {
      const switched = await this.switchModel(patch.model);
      if (!switched.ok) return switched;
    }
    const stored = await this.options.settings.update(patch);
    if (this.current) {
      this.current.session.setEffort(stored.effort);
      if (patch.permission_mode !== undefined || patch.permission_rules !== undefined)
        applyPermissions(this.current.session, stored);
      if (patch.max_edit_file_mib !== undefined) applyEditLimit(this.current.session, stored);
    }
    this.compaction.apply(stored);
    this.options.onSettingsChanged?.(stored);
    return attempt(() => this.settings());
  }

  /**
   * A `compat:` model is switched to only when its server answers and offers it (its window is
   * kept for the meter); the error says why, and the model selected before stays.
   */
  private async checkServerModel(id: string): Promise<Result<void>> {
    const listed = await this.models.learn(id, { timeoutMs: 5_000 });
    if (listed === null) return ok(undefined);
    if (!listed.ok) return listed;
    const parsed = parseModelId(id);
    const name = parsed.ok && parsed.spec.family === 'compat' ? parsed.spec.model : id;
    if (listed.models.length === 0 || listed.models.some((model) => model.id === name)) return ok(undefined);
    const names = listed.models.map((model) => model.id);
    const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, and ${names.length - 8} more` : '');
    return { ok: false, error: `The model server offers no model named "${name}"; it offers ${shown}.` };
  }

  private async ensureSession(): Promise<Result<Current>> {
    if (this.current) return ok(this.current);
    const settings = await this.options.settings.get();
    const model = await this.createModel(settings.model);
    if (!model.ok) return model;
    let current: Current;
    try {
      const session = await AgentSession.start({
        root: this.options.sessionsRoot,
        ...(await this.sessionOptions(settings, model.value)),
      });
      current = this.adopt(session, settings, model.value);
      // The new session is the one shown now; call ids of the one viewed before may repeat in it.
      this.viewed = null;
      this.foreign = null;
    } catch (error) {
      await model.value.close?.();
      return { ok: false, error: `Could not start a session in ${this.options.sessionsRoot}: ${errorMessage(error)}` };
    }
    this.announce();
    return ok(current);
  }

  /** What a started and a resumed session are both given: this workspace, its model, the settings. */
  private async sessionOptions(settings: StoredSettings, model: ModelAdapter) {
    this.models.setOverrides(settings.model_overrides);
    await this.models.learn(model.id, { timeoutMs: 3_000 });
    this.compaction.apply(settings);
    return {
      workspace: this.options.workspace,
      model,
      sink: this.sink(),
      rules: rulesForMode(settings.permission_mode),
      effort: settings.effort,
      tools: await this.toolset.tools(),
      modelInfo: (id: string) => this.models.info(id),
      compactAt: this.compaction.threshold,
    };
  }

  private adopt(session: AgentSession, settings: StoredSettings, model: ModelAdapter): Current {
    applyPermissions(session, settings);
    applyEditLimit(session, settings);
    this.current = { session, model };
    return this.current;
  }

  private async open(id: string): Promise<Result<OpenedSession>> {
    this.viewed = null;
    this.foreign = null;
    this.pages = null;
    if (this.current?.session.id !== id) {
      const busy = this.busyRefusal('open another session');
      if (busy) return busy;
      // Its header says whose workspace it is; the file itself is read once, by whoever shows it.
      const peeked = await attempt(() => peekSession(this.options.sessionsRoot, id));
      if (!peeked.ok) return peeked;
      // A session of another workspace is shown, not resumed: its tools would reach the wrong folder.
      if (peeked.value.workspace !== this.options.workspace) {
        const opened = await attempt(() => openSession(this.options.sessionsRoot, id));
        if (!opened.ok) return opened;
        this.viewed = opened.value.replay.contents;
        this.foreign = opened.value.opened.summary.workspace;
        const notice = { kind: 'other_workspace' as const, text: foreignNotice(this.foreign, this.options.workspace) };
        const shown = { ...opened.value.opened, notices: [...(opened.value.opened.notices ?? []), notice] };
        return ok(this.firstPage(new SessionPages(opened.value.replay), shown));
      }
      await this.closeCurrent();
      const settings = await this.options.settings.get();
      const model = await this.createModel(settings.model);
      if (!model.ok) return model;
      let session: AgentSession;
      try {
        session = await AgentSession.resume({
          root: this.options.sessionsRoot,
          id,
          ...(await this.sessionOptions(settings, model.value)),
        });
        this.adopt(session, settings, model.value);
        const title = await readTitle(this.options.sessionsRoot, id);
        if (title !== null) this.renamed.set(id, title);
      } catch (error) {
        await model.value.close?.();
        // Another process (a CLI run, a second window of another host) is writing it: show it as it is.
        if (error instanceof SessionLockedError) {
          const opened = await attempt(() => openSession(this.options.sessionsRoot, id));
          if (!opened.ok) return opened;
          return ok(this.firstPage(new SessionPages(opened.value.replay), this.viewReadOnly(opened.value, error)));
        }
        return { ok: false, error: `Could not reopen session ${id}: ${errorMessage(error)}` };
      }
      this.announce();
      // What the resume read, repairs included (it wrote them), is what the panel shows: no second read.
      if (session.reopened && session.reopenedPages) {
        const summary = this.currentSummary() ?? session.reopened.summary;
        return ok(this.firstPage(session.reopenedPages, { ...session.reopened, summary }));
      }
    }
    // The session is live here (a page reload): a turn running in it must not be drawn as interrupted.
    const reopened = await attempt(() => openSession(this.options.sessionsRoot, id, { live: true }));
    if (!reopened.ok) return reopened;
    // The damage found when it was resumed (a torn tail is cut off by then, so this read misses it).
    const notices = this.current?.session.reopened?.notices ?? reopened.value.opened.notices;
    const { notices: _, ...opened } = reopened.value.opened;
    return ok(this.firstPage(new SessionPages(reopened.value.replay), notices ? { ...opened, notices } : opened));
  }

  /** The newest page of the session shown; its older pages are read back from the file when asked for. */
  private firstPage(pages: SessionPages, opened: OpenedSession): OpenedSession {
    this.pages = pages;
    return pages.first(opened);
  }

  private olderPage(id: string, before: number): Promise<Result<SessionPage>> {
    const pages = this.pages;
    if (pages?.id !== id) {
      return Promise.resolve({
        ok: false,
        error: `Session ${id} is no longer the one shown: open it again to read its earlier events.`,
      });
    }
    return attempt(() => pages.before(before));
  }

  private viewReadOnly(
    opened: Awaited<ReturnType<typeof openSession>>,
    locked: SessionLockedError,
  ): Awaited<ReturnType<typeof openSession>>['opened'] {
    this.viewed = opened.replay.contents;
    const notice = {
      kind: 'read_only' as const,
      text: `${locked.message} It is shown read-only; a message you send now starts a new session.`,
    };
    // Its repairs are not drawn: a turn the other process is running is not interrupted.
    const live = openedOf(opened.replay, { live: true });
    return { ...live, notices: [...(live.notices ?? []), notice] };
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

  private async closeCurrent(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = null;
    await current.session.close();
    await current.model.close?.();
  }

  private busyRefusal(what: string): { ok: false; error: string } | null {
    return this.current?.session.busy
      ? { ok: false, error: `A turn is still running: stop it (Esc) before you ${what}.` }
      : null;
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

/** The mode's rule per kind, the rule lists and the protected-path bypass, as the settings say now. */
function applyPermissions(session: AgentSession, settings: StoredSettings): void {
  const rules = rulesForMode(settings.permission_mode);
  for (const kind of TOOL_KINDS) session.gate.setRule(kind, rules[kind]);
  session.gate.setRuleLists(settings.permission_rules ?? EMPTY_RULES);
  session.gate.setBypassProtected(bypassesProtectedPaths(settings.permission_mode));
}

/** The largest file write_file and patch_file read whole, as the settings say now. */
function applyEditLimit(session: AgentSession, settings: StoredSettings): void {
  session.registry.setMaxEditBytes((settings.max_edit_file_mib ?? DEFAULT_MAX_EDIT_BYTES / MIB) * MIB);
}

function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

function foreignNotice(theirs: string, ours: string): string {
  return `This session was made in another workspace (${theirs}), so it is shown read-only here: its tools would reach that folder, not ${ours}. Start a new session here to go on working.`;
}

function foreignRefusal(theirs: string, ours: string): { ok: false; error: string } {
  return {
    ok: false,
    error: `Not sent: the session shown belongs to another workspace (${theirs}) and is read-only here. Choose "New session here" to work in ${ours}; your message stays in the box.`,
  };
}

function noSession(): { ok: false; error: string } {
  return { ok: false, error: 'No session is open: send a message to start one.' };
}

async function attempt<T>(task: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await task());
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}
