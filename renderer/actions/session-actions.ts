import type { AgentChoice, Result, SessionMatch, SessionSummary } from '../../protocol/api.ts';
import type { RewindApply, RewindDone, RewindPreview, RewindRequest } from '../../protocol/rewind.ts';
import type { ChangesRevertDone, ChangesRevertRequest, TurnChanges } from '../../protocol/changes.ts';
import type { ProcessInfo } from '../../protocol/processes.ts';
import type { SessionExportFormat } from '../../protocol/session-export.ts';
import { saveText } from '../cards/save-bytes.ts';
import { copyText } from '../clipboard.ts';
import type { Bridge } from '../transport/bridge.ts';
import { loadOlderEvents, openSession, refreshSessions } from '../transport/connect.ts';
import { revealCall } from '../transcript/reveal-row.ts';
import { transcriptMarkdown } from '../transcript/markdown.ts';
import type { ActionKit } from './action-kit.ts';

// The sessions the person works with: the list, opening one (an agent's too), a new one, deleting,
// searching, renaming, exporting and copying one, its older pages, its changes and rewinds.

export interface SessionActions {
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
  /** What a rewind would change; the dialog shows a failure itself. */
  previewRewind(request: RewindRequest): Promise<Result<RewindPreview>>;
  /** The files a finished turn changed (the Changes card); the error is the card's to show. */
  turnChanges(turnId: string): Promise<Result<TurnChanges>>;
  /** Reverts some or all of a turn's files; conflicts come back unresolved for the card to ask about. */
  revertChanges(request: ChangesRevertRequest): Promise<Result<ChangesRevertDone>>;
  /** Rewinds; the dialog shows a failure itself. The sessions list is fetched again (a fork is new). */
  applyRewind(request: RewindApply): Promise<Result<RewindDone>>;
  copyTranscript(): Promise<boolean>;
}

export function createSessionActions(
  { api, store, state, report, reportedValue }: ActionKit,
  clipboard?: Pick<Clipboard, 'writeText'>,
): SessionActions {
  // A session shown read-only runs no processes here.
  const leaveProcesses = (what: string): Promise<boolean> =>
    state().viewOnly ? Promise.resolve(true) : confirmLeavingProcesses(api, what);

  return {
    refreshSessions: () => refreshSessions(api, store),
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
    loadOlderEvents: () => loadOlderEvents(api, store),
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
    // The menu is left out when they cannot be read: the session list itself still works.
    listAgents: async () => {
      const listed = await api.listAgents();
      return listed.ok ? listed.value : null;
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
    searchSessions: async (query) => reportedValue(await api.searchSessions(query)),
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
    previewRewind: (request) => api.previewRewind(request),
    turnChanges: (turnId) => api.turnChanges(turnId),
    revertChanges: (request) => api.revertChanges(request),
    applyRewind: async (request) => {
      const done = await api.applyRewind(request);
      if (done.ok && done.value.fork) await refreshSessions(api, store);
      return done;
    },
    copyTranscript: async () => copyText(transcriptMarkdown(state().transcript), clipboard),
  };
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
