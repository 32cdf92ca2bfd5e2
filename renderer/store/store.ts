import { create, type StateCreator } from 'zustand';
import type {
  OpenedSession,
  PanelInfo,
  SessionNotice,
  SessionPage,
  SessionSummary,
  Settings,
} from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { fileViewerSlice, type FileViewerSlice } from '../files/viewer-slice.ts';
import { findSlice, type FindSlice } from '../find/find-slice.ts';
import { outboxSlice, type OutboxSlice } from '../transport/outbox.ts';
import { reduceStatusEvents } from './transcript-reducer.ts';
import { emptyTranscript, type TranscriptState } from './transcript-types.ts';
import { EventHistory, type OlderEvents } from './event-history.ts';

// One store of typed slices. The bridge wiring (renderer/connect.ts) updates it from outside
// React; components select single values or use `useShallow`.

export interface TranscriptSlice {
  transcript: TranscriptState;
  /** What the opened session's replay said about it (damage, read-only), shown above the transcript. */
  sessionNotices: SessionNotice[];
  /**
   * The session shown is only viewed (another workspace's, or one another process is writing):
   * nothing offers to act on it (rewinds, a turn's changes), whether or not its notice was dismissed.
   */
  viewOnly: boolean;
  dismissSessionNotices(): void;
  applyEvents(events: readonly StatusEvent[]): void;
  /**
   * Replaces the transcript with the replay of an opened session, then applies the live events
   * that came while it was opening and that it does not hold already (seq after its last).
   */
  replaySession(opened: OpenedSession, live?: readonly StatusEvent[]): void;
  clearTranscript(): void;
  /** A long session's older pages: where the next one starts, or null when every event is shown. */
  olderEvents: OlderEvents | null;
  /** Rows older pages put in front of the transcript since it was replayed (the list keeps its place by it). */
  prependedRows: number;
  setOlderLoading(loading: boolean): void;
  /** Puts an older page of the shown session in front of the transcript. */
  prependPage(page: SessionPage): void;
}

export interface SessionSlice {
  session: SessionSummary | null;
  sessions: SessionSummary[];
  /** Whether the session list has been fetched at least once. */
  sessionsLoaded: boolean;
  workspace: string;
  models: string[];
  /** The tools this build registers; null until the panel info arrives. */
  tools: string[] | null;
  version: string;
  /** The host can open files in the person's editor (the desktop app). */
  opensEditor: boolean;
  /** The host cannot keep a key typed into the panel: keys come from its environment (the web host). */
  keysFromEnvironment: boolean;
  /** Why the sandbox mode cannot sandbox here (it asks before every command); null where it can. */
  sandboxUnavailable: string | null;
  setInfo(info: PanelInfo): void;
  setSession(session: SessionSummary | null): void;
  setSessions(sessions: SessionSummary[]): void;
}

export interface SettingsSlice {
  settings: Settings | null;
  setSettings(settings: Settings): void;
}

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';
export type PanelView = 'transcript' | 'settings';

export interface UiSlice {
  connection: ConnectionState;
  /** Seconds until the next reconnect attempt, when disconnected. */
  retryIn: number | null;
  view: PanelView;
  sessionsOpen: boolean;
  /** The last failure a request returned, shown until dismissed or until its cause goes. */
  error: string | null;
  /**
   * The session shown when a request about it failed ('' for none yet): the error goes when another
   * session is shown. Null for a failure about the panel as a whole (settings, the list).
   */
  errorAbout: string | null;
  /** Whether the person dismissed the first-run offer. */
  welcomeDismissed: boolean;
  /** Bumped when the transcript should show its end (the person just sent something). */
  jumpToLatest: number;
  setConnection(connection: ConnectionState, retryIn?: number | null): void;
  setView(view: PanelView): void;
  setSessionsOpen(open: boolean): void;
  /** `about`: the shown session's id ('' for none), when the request that failed was about it. */
  showError(error: string | null, about?: string | null): void;
  dismissWelcome(): void;
  requestJumpToLatest(): void;
}

export type PanelState = TranscriptSlice &
  SessionSlice &
  SettingsSlice &
  UiSlice &
  FindSlice &
  OutboxSlice &
  FileViewerSlice;

type Slice<T> = StateCreator<PanelState, [], [], T>;

const transcriptSlice: Slice<TranscriptSlice> = (set, get) => {
  const history = new EventHistory();
  return {
    transcript: emptyTranscript(),
    sessionNotices: [],
    viewOnly: false,
    olderEvents: null,
    prependedRows: 0,
    dismissSessionNotices: () => set({ sessionNotices: [] }),
    applyEvents: (events) => {
      if (get().olderEvents) history.record(events);
      set((state) => ({ transcript: reduceStatusEvents(state.transcript, events) }));
    },
    replaySession: (opened, live = []) => {
      const last = lastSeqOf(opened.events);
      // An event without a seq cannot be matched against the replay; it is applied.
      const fresh = live.filter((event) => event.seq === undefined || event.seq > last);
      const older = opened.older ? { id: opened.summary.id, before: opened.older, loading: false } : null;
      history.reset(opened.events, older !== null);
      if (older) history.record(fresh);
      const replayed = reduceStatusEvents(emptyTranscript(), opened.events);
      // The waiting messages: as the reopened session holds them, when its page does not show their events.
      const base = {
        ...replayed,
        ...(opened.queue ? { queue: opened.queue } : {}),
        ...(opened.todos ? { todos: opened.todos } : {}),
      };
      set({
        transcript: reduceStatusEvents(base, fresh),
        session: opened.summary,
        ...errorGoneWith(get(), opened.summary.id),
        sessionNotices: opened.notices ?? [],
        // An agent's session is only ever shown: its parent's agent call is what talks to it.
        viewOnly:
          opened.summary.agent_of !== undefined ||
          (opened.notices ?? []).some((notice) => notice.kind === 'other_workspace' || notice.kind === 'read_only'),
        olderEvents: older,
        prependedRows: 0,
      });
    },
    clearTranscript: () => {
      history.clear();
      set({
        transcript: emptyTranscript(),
        ...errorGoneWith(get(), ''),
        sessionNotices: [],
        viewOnly: false,
        olderEvents: null,
        prependedRows: 0,
      });
    },
    setOlderLoading: (loading) => {
      const older = get().olderEvents;
      if (older) set({ olderEvents: { ...older, loading } });
    },
    prependPage: (page) => {
      const { olderEvents: older, transcript: shown, prependedRows } = get();
      // A page of a session no longer shown, or one already in front, changes nothing.
      if (!older || older.id !== page.id || page.before >= older.before) return;
      // Older events cannot change what waits now or the list now: they stay as shown.
      const replayed = reduceStatusEvents(emptyTranscript(), history.prepend(page));
      const transcript = { ...replayed, queue: shown.queue, todos: shown.todos };
      if (page.before === 0) history.clear();
      set({
        transcript,
        olderEvents: page.before > 0 ? { id: older.id, before: page.before, loading: false } : null,
        prependedRows: prependedRows + Math.max(0, transcript.order.length - shown.order.length),
      });
    },
  };
};

const sessionSlice: Slice<SessionSlice> = (set, get) => ({
  session: null,
  sessions: [],
  sessionsLoaded: false,
  workspace: '',
  models: [],
  tools: null,
  version: '',
  opensEditor: false,
  keysFromEnvironment: false,
  sandboxUnavailable: null,
  setInfo: (info) =>
    set({
      workspace: info.workspace,
      session: info.session,
      models: info.models,
      tools: info.tools,
      version: info.version,
      opensEditor: info.opens_editor === true,
      keysFromEnvironment: info.keys_from_environment === true,
      sandboxUnavailable: info.sandbox_unavailable ?? null,
    }),
  setSession: (session) => set({ session, ...errorGoneWith(get(), session?.id ?? '') }),
  setSessions: (sessions) => set({ sessions, sessionsLoaded: true }),
});

const settingsSlice: Slice<SettingsSlice> = (set) => ({
  settings: null,
  setSettings: (settings) => set({ settings }),
});

const uiSlice: Slice<UiSlice> = (set) => ({
  connection: 'connecting',
  retryIn: null,
  view: 'transcript',
  sessionsOpen: false,
  error: null,
  errorAbout: null,
  welcomeDismissed: false,
  jumpToLatest: 0,
  setConnection: (connection, retryIn = null) => set({ connection, retryIn }),
  setView: (view) => set({ view }),
  setSessionsOpen: (sessionsOpen) => set({ sessionsOpen }),
  showError: (error, about = null) => set({ error, errorAbout: error === null ? null : about }),
  dismissWelcome: () => set({ welcomeDismissed: true }),
  requestJumpToLatest: () => set((state) => ({ jumpToLatest: state.jumpToLatest + 1 })),
});

/** An error about a session other than the one now shown (`shown`, '' for none) has lost its cause: it goes. */
function errorGoneWith(state: PanelState, shown: string): Partial<UiSlice> {
  return state.errorAbout !== null && state.errorAbout !== shown ? { error: null, errorAbout: null } : {};
}

function lastSeqOf(events: readonly StatusEvent[]): number {
  let last = 0;
  for (const event of events) if (event.seq !== undefined && event.seq > last) last = event.seq;
  return last;
}

export function createPanelStore() {
  return create<PanelState>()((...a) => ({
    ...transcriptSlice(...a),
    ...sessionSlice(...a),
    ...settingsSlice(...a),
    ...uiSlice(...a),
    ...findSlice(a[0]),
    ...outboxSlice(a[0]),
    ...fileViewerSlice(a[0]),
  }));
}

export type PanelStore = ReturnType<typeof createPanelStore>;

/** The panel's store. Tests build their own with `createPanelStore`. */
export const usePanel: PanelStore = createPanelStore();
