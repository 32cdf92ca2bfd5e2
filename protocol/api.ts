import type { ElicitAnswer, ElicitationView } from './elicitation.ts';
import type { CommandPreviewView } from './sandbox.ts';
import type { FileMatches, ImageMediaType, ImageRef, McpResourceMatch, UserCommandList } from './composer.ts';
import type { CompactionEvent, CompactionFailedEvent, StatusEvent, Usage } from './events.ts';
import type { HooksScreen } from './hooks.ts';
import type { McpChange, McpScreen } from './mcp.ts';
import type { ServerModelChoice } from './models.ts';
import type { SentSettings, SettingsPatch } from './settings.ts';
import type { ApprovalAnswer, PermissionMode, ProviderId } from './values.ts';
import type { RewindApply, RewindDone, RewindPreview, RewindRequest } from './rewind.ts';
import type { ChangesRevertDone, ChangesRevertRequest, TurnChanges } from './changes.ts';
import type { ReviewChoice } from './review.ts';
import type { ProcessInfo, ProcessView } from './processes.ts';
import type { QueueState, SendMode } from './queue.ts';
import type { TodoItem } from './todos.ts';
import type { SessionExport, SessionExportFormat } from './session-export.ts';
import type { FileOpenRequest, FileReadRequest, FileView, OpenFilesIn } from './files.ts';

// The panel API: one typed map of requests (channel → request → response) and one of events.
// The Electron preload and the web-socket client both serve `PanelApi` (panel-client.ts) from these maps.

/** Errors that cross a boundary are values, with a message a person can act on. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export type { PermissionMode, ProviderId, SendKey, Theme } from './values.ts';

export type { PermissionRuleLists, SettingsPatch } from './settings.ts';

/**
 * The settings as the panel gets them (protocol/settings.ts declares each), with which keys are
 * stored and what is wrong with settings.json.
 */
export type Settings = SentSettings & {
  /** Which providers have a stored key; the keys themselves never reach the renderer. */
  keys: Record<ProviderId, boolean>;
  /**
   * The provider whose key the selected model needs and that neither the key store nor the
   * environment holds; null when the model needs no key (demo, compat:) or has one. Derived, never set.
   */
  missing_key: ProviderId | null;
  /** What is wrong with settings.json; absent when it reads cleanly. Derived, never set. */
  file_problems?: SettingsFileProblems;
};

export interface SettingsFileProblems {
  /** Where settings.json is. */
  path: string;
  /**
   * Why the file cannot be used at all (not JSON, with its line:column; not an object; not
   * readable) and what to do. Until it is fixed no session starts and nothing is saved over it.
   */
  unreadable?: string;
  /** Values of the file that are not used, each a sentence saying why; the rest applies. */
  ignored: string[];
}

export interface SessionSummary {
  id: string;
  title: string;
  workspace: string;
  created_at: string;
  updated_at: string;
  model?: string;
  /**
   * Set on a session forked from another by a conversation rewind: the session and the turn it was
   * forked before, and that turn's message as the person counts them (1 for the first message).
   */
  parent?: { session: string; turn_id: string; call_id?: string; message?: number };
  /** The agent the session runs as (started as one). */
  as_agent?: string;
  /** The sessions its `agent` calls started, oldest first: listed under it, never on their own. */
  agents?: AgentSessionSummary[];
  /**
   * Set on the session of an agent: the session whose `agent` call started it, that call, the
   * agent's name, and the parent's name when it was read with it. Such a session is only shown.
   */
  agent_of?: { session: string; call_id: string; agent: string; parent_title?: string };
}

/** A session an `agent` call started, as its parent's summary lists it, with the agents it started in turn. */
export interface AgentSessionSummary {
  id: string;
  agent: string;
  title: string;
  agents?: AgentSessionSummary[];
}

/** An agent as the panel lists it. */
export interface AgentChoice {
  name: string;
  description: string;
  origin: 'builtin' | 'person' | 'workspace';
  /** False for a workspace's agent the person has not approved (as its file is now). */
  approved: boolean;
}

export interface OpenedSession {
  summary: SessionSummary;
  /** Durable events in order; the panel rebuilds the same cards from them. */
  events: StatusEvent[];
  /** Lines that could not be read back (counted, skipped). */
  corrupt_lines: number;
  usage: Usage;
  /** What the person should know before reading it: damage found, or that it is shown read-only. */
  notices?: SessionNotice[];
  /**
   * A long session comes newest page first: how many events come before `events`. The panel asks
   * for them with `session:page` as the person scrolls up; absent when `events` is all of them.
   */
  older?: number;
  /** Messages that were waiting when it was last open, held until the person sends them. */
  queue?: QueueState;
  /** Its todo list, though the events that wrote it may lie before this page. */
  todos?: TodoItem[];
}

/** Events of an opened session just before event `before` of the previous page (`before`: where this one starts). */
export interface SessionPage {
  id: string;
  events: StatusEvent[];
  before: number;
}

export interface SessionNotice {
  /**
   * `damaged`: lines were skipped (`lines` of them); `read_only`: another process is writing the
   * session; `other_workspace`: it belongs to another workspace, so it is shown and never continued here.
   */
  kind: 'damaged' | 'read_only' | 'other_workspace';
  text: string;
  lines?: number;
}

/** A session whose name or messages hold what the session list searched for. */
export interface SessionMatch {
  id: string;
  /** The words around the first place it does. */
  snippet: string;
}

/** A system notification the panel asks the app for: a question that waits (`urgent`) or a turn's end. */
export interface SystemNotice {
  title: string;
  body: string;
  /** One per question or turn; its click names it. */
  tag: string;
  urgent: boolean;
}

export interface ToolContent {
  call_id: string;
  name: string;
  /** Exactly what the model received for this call. */
  content: string;
  is_error: boolean;
  /** Images of the result (an MCP tool's), kept in the session's folder; sent to models that take images. */
  images?: ImageRef[];
}

export interface PanelInfo {
  workspace: string;
  session: SessionSummary | null;
  models: string[];
  /**
   * The tools this build registers. A replayed call of any other tool has no definition here, so
   * its generic card may read a whole-XML result as a tree; a known tool's text stays literal.
   */
  tools: string[];
  version: string;
  /** This host can open files in the person's editor (the desktop app); the web host shows them in the panel. */
  opens_editor?: boolean;
  /**
   * This host cannot keep an API key typed into the panel: it reads keys from the environment of
   * the process that serves it (the web host's ANTHROPIC_API_KEY, OPENAI_API_KEY) alone.
   */
  keys_from_environment?: boolean;
  /** Why no sandbox can start here and how to enable one; absent where the sandbox mode sandboxes. */
  sandbox_unavailable?: string;
}

export interface PanelRequests {
  'panel:info': { request: void; response: PanelInfo };
  /**
   * `mentions`: workspace paths (files, folders) whose content or listing goes with the message;
   * `images`: the sha256 of images attached with `composer:attach-image`.
   */
  'turn:send': {
    /** `mode` while a turn runs: `steer` (the default) enters it at its next safe point, `queue` waits for its end. */
    request: { text: string; mentions?: string[]; images?: string[]; mode?: SendMode };
    response: Result<{ turn_id: string; queued: boolean; queued_id?: string }>;
  };
  /** The waiting messages (protocol/queue.ts): a new text, removal, a new place, Send now, Hold. */
  'queue:edit': { request: { id: string; text: string }; response: Result<void> };
  'queue:remove': { request: { id: string }; response: Result<void> };
  'queue:move': { request: { id: string; to: number }; response: Result<void> };
  'queue:send': { request: void; response: Result<void> };
  'queue:hold': { request: void; response: Result<void> };
  /**
   * Approve and start a proposed plan (its card's plan and todos): the permission mode becomes `mode`,
   * the plan a durable context note, its todos the list, and a turn starts to carry it out.
   */
  'plan:approve': {
    request: { call_id: string; plan: string; todos: TodoItem[]; mode: PermissionMode };
    response: Result<{ turn_id: string; queued: boolean }>;
  };
  /** Keep planning on a proposed plan: its card is answered, durably (a `plan_kept` event). */
  'plan:keep': { request: { call_id: string }; response: Result<void> };
  /** The person's todo list (ticked, added to, items removed); answers with the list saved. */
  'todos:set': { request: { todos: TodoItem[] }; response: Result<TodoItem[]> };
  'turn:stop': { request: void; response: Result<void> };
  /** Cancels one running top-level call (Stop on its card): the model gets its cancelled result and the turn goes on. */
  'tool:cancel': { request: { call_id: string }; response: Result<void> };
  /** `review`: a write's hunks as the person chose them (only for a question that carried `review`). */
  'tool:approve': {
    request: { call_id: string; answer: ApprovalAnswer; review?: ReviewChoice };
    response: Result<void>;
  };
  'tool:content': { request: { call_id: string }; response: Result<ToolContent> };
  /** Runs a command that waits for approval over a copy of the workspace, in the sandbox: what it would change. */
  'tool:preview': { request: { call_id: string }; response: Result<CommandPreviewView> };
  /** Applies exactly the previewed changes (refused when those files changed since) and answers the question. */
  'tool:keep-preview': { request: { call_id: string }; response: Result<void> };
  'session:list': { request: void; response: Result<SessionSummary[]> };
  'session:open': { request: { id: string }; response: Result<OpenedSession> };
  /** The page of the opened session's events before event `before` (its `older`, then each page's `before`). */
  'session:page': { request: { id: string; before: number }; response: Result<SessionPage> };
  'session:new': { request: void; response: Result<SessionSummary> };
  /** A new session that runs as an agent (its instructions, tools, model and mode). */
  'session:new-as': { request: { agent: string }; response: Result<SessionSummary> };
  /** The agents a session can run as or hand work to, and whether each may run here. */
  'agents:list': { request: void; response: Result<AgentChoice[]> };
  'session:delete': { request: { id: string }; response: Result<void> };
  /** A session as Markdown or a self-contained HTML page, with the app's keys and secret variables removed. */
  'session:export': { request: { id: string; format: SessionExportFormat }; response: Result<SessionExport> };
  /**
   * Compacts the open session's model context now; `focus`: what the summary must keep. Between
   * turns only. An attempt that failed is a value too (`compaction_failed`, its card says why).
   */
  'session:compact': { request: { focus?: string }; response: Result<CompactionEvent | CompactionFailedEvent> };
  /** Sessions whose name or messages hold `query`. */
  'session:search': { request: { query: string }; response: Result<SessionMatch[]> };
  /** Names a session durably; a blank title goes back to its first message. */
  'session:rename': { request: { id: string; title: string }; response: Result<SessionSummary> };
  /** The open session's background processes, with their ports and last lines now (the Processes strip). */
  'process:list': { request: void; response: Result<ProcessInfo[]> };
  /** One process's newest output, and its screen when it runs in a terminal (its live view). */
  'process:output': { request: { id: string }; response: Result<ProcessView> };
  /** Stops one (Stop on the strip): it and everything it started. */
  'process:stop': { request: { id: string }; response: Result<ProcessInfo> };
  /** Moves a running exec call's command to the background instead of letting its timeout stop it (Keep running on its card). */
  'process:keep': { request: { call_id: string }; response: Result<ProcessInfo> };
  /** What "Always for this session" answers allowed in the open session, as rules (`write(src/a.ts)`). */
  'session:grants': { request: void; response: Result<string[]> };
  /**
   * The events of a child session an `agent` call of session `parent` started: its card's transcript.
   * Named by the child's id, or by the call's (a call a crash cut short has no echo naming its child).
   */
  'agent:transcript': {
    request: { parent: string; session: string } | { parent: string; call_id: string };
    response: Result<StatusEvent[]>;
  };
  /** Takes one of those back; answers with the ones left. */
  'session:revoke': { request: { rule: string }; response: Result<string[]> };
  /** A system notification from the app (Electron); a host without them answers an error and the page shows its own. */
  'notify:show': { request: SystemNotice; response: Result<void> };
  'settings:get': { request: void; response: Result<Settings> };
  'settings:update': { request: SettingsPatch; response: Result<Settings> };
  'settings:set-key': { request: { provider: ProviderId; key: string | null }; response: Result<Settings> };
  'link:open': { request: { url: string }; response: Result<void> };
  /** What rewinding the open session to a card or message would change, and the files the person changed since. */
  'rewind:preview': { request: RewindRequest; response: Result<RewindPreview> };
  /** Rewinds the code, the conversation (a fork the panel opens next) or both, with the person's choice per conflicting file. */
  'rewind:apply': { request: RewindApply; response: Result<RewindDone> };
  /** The files a turn of the open session changed, with +/− counts and diffs (the Changes card). */
  'changes:turn': { request: { turn_id: string }; response: Result<TurnChanges> };
  /** Reverts some or all of a turn's files; files the person changed since come back as conflicts to choose on. */
  'changes:revert': { request: ChangesRevertRequest; response: Result<ChangesRevertDone> };
  /** The person's slash commands: the workspace's `.aethercodex/commands/*.md` and the app home's `commands/*.md`. */
  'composer:commands': { request: void; response: Result<UserCommandList> };
  /** An MCP server's prompt with its arguments, as the text of a message (a `/mcp__server__prompt` command). */
  'mcp:prompt': {
    request: { server: string; name: string; arguments: Record<string, string> };
    response: Result<{ text: string }>;
  };
  /** The running MCP servers' resources whose name, server or URI holds `query`, for `@`. */
  'mcp:resources': { request: { query: string }; response: Result<McpResourceMatch[]> };
  /** The prompts sent from this workspace, newest last (protocol/prompt-history.ts), kept by the host on disk. */
  'history:list': { request: void; response: Result<string[]> };
  /** Remembers a prompt sent; answers with the history after it. */
  'history:add': { request: { text: string }; response: Result<string[]> };
  /** Forgets a prompt (Shift+Delete on it); answers with the history after it. */
  'history:forget': { request: { text: string }; response: Result<string[]> };
  /**
   * Prompts an older version kept in the page's own storage, oldest first: put before the host's
   * (which stay the newest), within the bounds; answers with the history after it.
   */
  'history:import': { request: { prompts: string[] }; response: Result<string[]> };
  /** Fuzzy search over the workspace's files and folders (`.gitignore` respected), for `@`. */
  'composer:files': { request: { query: string }; response: Result<FileMatches> };
  /** The models an OpenAI-compatible server offers (`GET <base_url>/models`), for the model picker. */
  'models:server': { request: { base_url: string }; response: Result<ServerModelChoice[]> };
  /** Holds a pasted or dropped image (base64) for the next message; its type is checked from its bytes. */
  'composer:attach-image': { request: { media_type: ImageMediaType; data: string }; response: Result<ImageRef> };
  /** The bytes of a binary resource an MCP tool returned in the open session (kept by their sha256), base64, for Save…. */
  'tool:blob': { request: { sha256: string }; response: Result<{ data: string }> };
  /** A resource an MCP server offers (a result's resource link), base64 with its type, for Save…. */
  'mcp:resource': { request: { server: string; uri: string }; response: Result<{ data: string; mime_type?: string }> };
  /** An image of the open session (or one attached and not sent yet), base64, for its thumbnail. */
  'composer:image': { request: { sha256: string }; response: Result<{ media_type: ImageMediaType; data: string }> };
  /** A page of a workspace file as it is now, for the panel's read card; no model call, nothing logged. */
  'file:read': { request: FileReadRequest; response: Result<FileView> };
  /** Which of these workspace paths are files there now (the ones a file link is made for). */
  'file:exists': { request: { paths: string[] }; response: Result<string[]> };
  /** Opens a file link: in the person's editor when the desktop app is set to, else `viewer` (the panel shows it). */
  'file:open': { request: FileOpenRequest; response: Result<OpenFilesIn> };
  /** The MCP servers screen: every configured server, its status and tools, and the person's choices. */
  'mcp:servers': { request: void; response: Result<McpScreen> };
  /** One change made on that screen; answers with the screen after it. */
  'mcp:change': { request: McpChange; response: Result<McpScreen> };
  /** The forms MCP servers are waiting for the person to fill in (elicitation). */
  'mcp:elicitations': { request: void; response: Result<ElicitationView[]> };
  /** The person's answer to one: accepted with its content (checked against its schema), declined or cancelled. */
  'mcp:elicit-answer': { request: ElicitAnswer; response: Result<void> };
  /** The hooks the settings files configure for this workspace, which run and which wait for approval. */
  'hooks:list': { request: void; response: Result<HooksScreen> };
  /** Approves workspace hooks by id, as they were listed; answers with the list after it. */
  'hooks:approve': { request: { ids: string[] }; response: Result<HooksScreen> };
}

export interface PanelEvents {
  status: StatusEvent;
  'session:changed': SessionSummary;
  /** The person clicked the system notification of this tag; the app's window is in front again. */
  'notify:clicked': { tag: string };
  /** The forms MCP servers wait on, whenever one comes or goes. */
  'mcp:elicitations': ElicitationView[];
}

export type PanelChannel = keyof PanelRequests;
export type PanelEventName = keyof PanelEvents;
export type RequestOf<C extends PanelChannel> = PanelRequests[C]['request'];
export type ResponseOf<C extends PanelChannel> = PanelRequests[C]['response'];

/** Handlers main implements; a missing channel fails to compile. */
export type PanelHandlers = {
  [C in PanelChannel]: (request: RequestOf<C>) => Promise<ResponseOf<C>>;
};

export type Unsubscribe = () => void;

/** What the renderer sees as `window.pythia` (or the web-socket client): derived in panel-client.ts. */
export type { PanelApi } from './panel-client.ts';
