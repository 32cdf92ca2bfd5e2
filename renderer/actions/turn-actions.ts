import type { CommandPreviewView } from '../../protocol/sandbox.ts';
import type { PermissionMode, Result, ToolContent } from '../../protocol/api.ts';
import type { ApprovalAnswer, StatusEvent } from '../../protocol/events.ts';
import type { ReviewChoice } from '../../protocol/review.ts';
import type { SendMode } from '../../protocol/queue.ts';
import type { TodoItem } from '../../protocol/todos.ts';
import type { ProcessInfo, ProcessView } from '../../protocol/processes.ts';
import type { ActionKit } from './action-kit.ts';

// What the person does in the open session: send and the waiting messages, the todo list and a
// proposed plan, stop, a call's question, preview and stop, its content, its background processes,
// an agent's transcript, compaction.

export interface TurnActions {
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
  /** Compacts the open session's model context now; `focus`: what the summary must keep. False when it did not. */
  compact(focus?: string): Promise<boolean>;
}

export function createTurnActions({ api, state, reportAbout, shown }: ActionKit): TurnActions {
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
    keepPlanning: async (callId) => reportAbout(await api.keepPlanning(callId), shown()),
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
    previewCall: (callId) => api.previewCall(callId),
    keepPreview: async (callId) => {
      const about = shown();
      return reportAbout(await api.keepPreview(callId), about);
    },
    toolContent: (callId) => api.toolContent(callId),
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
    compact: async (focus) => {
      // A compaction that was tried and failed has its card; a refusal (no session, a turn running) the banner.
      const about = shown();
      const result = await api.compactSession(focus);
      return reportAbout(result, about) && result.ok && result.value.type === 'compaction';
    },
  };
}
